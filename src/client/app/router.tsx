/**
 * The data router: every page is a lazy route whose loader fills the query cache before the
 * page shows. Feature modules are composed here and nowhere else.
 */
import { loadChunk } from '@client/lib/chunk-load';
import { TEXT } from '@shared/texts';
import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { adminLoader, dashboardLoader, sellerLoader } from './guards';
import { PageFallback, RootLayout } from './layouts/root-layout';
import { NotFound } from './routes/not-found';
import { RootError } from './routes/route-error';

/** A dashboard page that the feature issues fill; until then it shows its heading. */
const dashboardPage = (path: string, title: string): RouteObject => ({
  path,
  handle: { title },
  HydrateFallback: PageFallback,
  lazy: async () => {
    const m = await loadChunk(() => import('@client/features/dashboard/routes/dashboard-page'));
    return { Component: m.DashboardPageFromRoute };
  },
});

export function createRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: '/',
      Component: RootLayout,
      ErrorBoundary: RootError,
      children: [
        {
          index: true,
          HydrateFallback: PageFallback,
          lazy: async () => {
            const m = await loadChunk(() => import('@client/features/home/routes/home'));
            return { Component: m.HomeRoute, loader: m.homeLoader(queryClient) };
          },
        },
        {
          path: 'category/:id',
          HydrateFallback: PageFallback,
          lazy: async () => {
            const m = await loadChunk(() => import('@client/features/catalog/routes/category'));
            return { Component: m.CategoryRoute, loader: m.categoryLoader(queryClient) };
          },
        },
        {
          path: 'blog',
          HydrateFallback: PageFallback,
          lazy: async () => {
            const m = await loadChunk(() => import('@client/features/blog/routes/blog'));
            return { Component: m.BlogRoute };
          },
        },
        {
          path: 'signin',
          HydrateFallback: PageFallback,
          lazy: async () => {
            const m = await loadChunk(() => import('@client/features/auth/routes/sign-in'));
            return { Component: m.SignInRoute, loader: m.signInLoader };
          },
        },
        ...['signup', 'signup/user', 'signup/seller'].map((path) => ({
          path,
          lazy: async () => {
            const m = await loadChunk(() => import('@client/features/auth/routes/sign-up'));
            return { Component: m.SignUpRoute };
          },
        })),
        {
          path: 'dashboard',
          HydrateFallback: PageFallback,
          loader: dashboardLoader(queryClient),
          lazy: async () => {
            const m = await loadChunk(
              () => import('@client/features/dashboard/routes/dashboard-layout'),
            );
            return { Component: m.DashboardLayout };
          },
          children: [
            {
              index: true,
              lazy: async () => {
                const m = await loadChunk(() => import('./routes/dashboard-index'));
                return { Component: m.DashboardIndex };
              },
            },
            dashboardPage('myorders', TEXT.dashboard.myOrders),
            dashboardPage('mywishlist', TEXT.dashboard.myWishListTitle),
            {
              path: 'addaproduct',
              HydrateFallback: PageFallback,
              loader: sellerLoader(queryClient),
              lazy: async () => {
                const m = await loadChunk(
                  () => import('@client/features/selling/routes/add-product'),
                );
                return { Component: m.AddProductRoute };
              },
            },
            {
              path: 'myproducts',
              HydrateFallback: PageFallback,
              loader: sellerLoader(queryClient),
              lazy: async () => {
                const m = await loadChunk(
                  () => import('@client/features/selling/routes/my-products'),
                );
                return { Component: m.MyProductsRoute };
              },
            },
            {
              ...dashboardPage('allseller', TEXT.dashboard.allSellers),
              loader: adminLoader(queryClient),
            },
            {
              ...dashboardPage('allbuyer', TEXT.dashboard.allBuyers),
              loader: adminLoader(queryClient),
            },
          ],
        },
        { path: '*', Component: NotFound },
      ],
    },
  ];
}

export const createRouter = (queryClient: QueryClient) =>
  createBrowserRouter(createRoutes(queryClient));
