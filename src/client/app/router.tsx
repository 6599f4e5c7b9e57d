/**
 * The data router: every page is a lazy route whose loader fills the query cache before the
 * page shows. Feature modules are composed here and nowhere else.
 */
import { loadChunk } from '@client/lib/chunk-load';
import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { PageFallback, RootLayout } from './layouts/root-layout';
import { NotFound } from './routes/not-found';
import { RootError } from './routes/route-error';

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
        { path: '*', Component: NotFound },
      ],
    },
  ];
}

export const createRouter = (queryClient: QueryClient) =>
  createBrowserRouter(createRoutes(queryClient));
