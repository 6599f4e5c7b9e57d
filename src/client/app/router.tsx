/**
 * The data router: every page is a lazy route whose loader fills the query cache before the
 * page shows. Feature modules are composed here and nowhere else.
 */
import { loadChunk } from '@client/lib/chunk-load';
import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import type { LoaderFunction, NonIndexRouteObject, RouteObject } from 'react-router';
import { adminLoader, dashboardLoader, sellerLoader } from './guards';
import { PageFallback, RootLayout } from './layouts/root-layout';
import { NotFound } from './routes/not-found';
import { RootError } from './routes/route-error';
import { CATCH_ALL } from './server-rendering';

/** A page whose code loads when first visited (and gives up after the spec's 120 s). */
const lazyPage = (
  path: string,
  load: () => Promise<{ Component: ComponentType; loader?: LoaderFunction }>,
  loader?: LoaderFunction,
): NonIndexRouteObject => ({
  path,
  HydrateFallback: PageFallback,
  ...(loader ? { loader } : {}),
  lazy: () => loadChunk(load),
});

export function createRoutes(queryClient: QueryClient): RouteObject[] {
  const seller = sellerLoader(queryClient);
  const admin = adminLoader(queryClient);
  return [
    {
      path: '/',
      Component: RootLayout,
      ErrorBoundary: RootError,
      children: [
        {
          index: true,
          HydrateFallback: PageFallback,
          lazy: () =>
            loadChunk(async () => {
              const m = await import('@client/features/home/routes/home');
              return { Component: m.HomeRoute, loader: m.homeLoader(queryClient) };
            }),
        },
        lazyPage('category/:id', async () => {
          const m = await import('@client/features/catalog/routes/category');
          return { Component: m.CategoryRoute, loader: m.categoryLoader(queryClient) };
        }),
        lazyPage('blog', async () => ({
          Component: (await import('@client/features/blog/routes/blog')).BlogRoute,
        })),
        lazyPage('signin', async () => {
          const m = await import('@client/features/auth/routes/sign-in');
          return { Component: m.SignInRoute, loader: m.signInLoader };
        }),
        ...['signup', 'signup/user', 'signup/seller'].map((path) =>
          lazyPage(path, async () => ({
            Component: (await import('@client/features/auth/routes/sign-up')).SignUpRoute,
          })),
        ),
        {
          ...lazyPage(
            'dashboard',
            async () => ({
              Component: (await import('@client/features/dashboard/routes/dashboard-layout'))
                .DashboardLayout,
            }),
            dashboardLoader(queryClient),
          ),
          children: [
            {
              index: true,
              lazy: () =>
                loadChunk(async () => ({
                  Component: (await import('./routes/dashboard-index')).DashboardIndex,
                })),
            },
            lazyPage('myorders', async () => ({
              Component: (await import('@client/features/buying/routes/my-orders')).MyOrdersRoute,
            })),
            lazyPage('payment/:id', async () => {
              const m = await import('@client/features/payment/routes/payment');
              return { Component: m.PaymentRoute, loader: m.paymentLoader(queryClient) };
            }),
            lazyPage('mywishlist', async () => ({
              Component: (await import('@client/features/buying/routes/my-wish-list'))
                .MyWishListRoute,
            })),
            lazyPage(
              'addaproduct',
              async () => ({
                Component: (await import('@client/features/selling/routes/add-product'))
                  .AddProductRoute,
              }),
              seller,
            ),
            lazyPage(
              'myproducts',
              async () => ({
                Component: (await import('@client/features/selling/routes/my-products'))
                  .MyProductsRoute,
              }),
              seller,
            ),
            lazyPage(
              'allseller',
              async () => ({
                Component: (await import('@client/features/admin/routes/all-sellers'))
                  .AllSellersRoute,
              }),
              admin,
            ),
            lazyPage(
              'allbuyer',
              async () => ({
                Component: (await import('@client/features/admin/routes/all-buyers'))
                  .AllBuyersRoute,
              }),
              admin,
            ),
            lazyPage(
              'banned',
              async () => ({
                Component: (await import('@client/features/admin/routes/banned')).BannedRoute,
              }),
              admin,
            ),
          ],
        },
        { path: CATCH_ALL, Component: NotFound },
      ],
    },
  ];
}
