/**
 * The data router: every page is a lazy route whose loader fills the query cache before the
 * page shows. Feature modules are composed here and nowhere else.
 */
import { loadChunk } from '@client/lib/chunk-load';
import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import type {
  LoaderFunction,
  LoaderFunctionArgs,
  NonIndexRouteObject,
  RouteObject,
} from 'react-router';
import { adminLoader, buyerLoader, dashboardLoader, sellerLoader } from './guards';
import { PageFallback, RootLayout } from './layouts/root-layout';
import { NotFound } from './routes/not-found';
import { RootError } from './routes/route-error';
import { CATCH_ALL } from './server-rendering';

type Page = { Component: ComponentType; loader?: LoaderFunction };

/**
 * A page whose code loads when first visited (and gives up after the spec's 120 s), with the
 * loader that fills the query cache before it shows. `guard` runs first and throws a redirect
 * for those who may not see the page, before any of its data is asked for.
 */
const lazyPage = (
  path: string,
  load: () => Promise<Page>,
  guard?: (args: LoaderFunctionArgs) => Promise<unknown>,
): NonIndexRouteObject => ({
  path,
  HydrateFallback: PageFallback,
  lazy: () =>
    loadChunk(async () => {
      const { Component, loader } = await load();
      if (!guard) return { Component, ...(loader ? { loader } : {}) };
      return {
        Component,
        loader: async (args: LoaderFunctionArgs) => {
          await guard(args);
          return loader ? loader(args) : null;
        },
      };
    }),
});

export function createRoutes(queryClient: QueryClient): RouteObject[] {
  const seller = sellerLoader(queryClient);
  const admin = adminLoader(queryClient);
  const buyer = buyerLoader(queryClient);
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
        lazyPage('product/:id', async () => {
          const m = await import('@client/features/catalog/routes/product');
          return { Component: m.ProductRoute, loader: m.productLoader(queryClient) };
        }),
        lazyPage('seller/:id', async () => {
          const m = await import('@client/features/catalog/routes/seller');
          return { Component: m.SellerRoute, loader: m.sellerLoader(queryClient) };
        }),
        lazyPage('search', async () => {
          const m = await import('@client/features/catalog/routes/search');
          return { Component: m.SearchRoute, loader: m.searchLoader(queryClient) };
        }),
        lazyPage('blog', async () => ({
          Component: (await import('@client/features/blog/routes/blog')).BlogRoute,
        })),
        lazyPage('signin', async () => {
          const m = await import('@client/features/auth/routes/sign-in');
          return { Component: m.SignInRoute, loader: m.signInLoader };
        }),
        lazyPage('unsubscribe', async () => ({
          Component: (await import('@client/features/notifications/routes/unsubscribe'))
            .UnsubscribeRoute,
        })),
        lazyPage('forgot-password', async () => ({
          Component: (await import('@client/features/auth/routes/forgot-password'))
            .ForgotPasswordRoute,
        })),
        // The welcome mail's confirmation link lands here (EMAIL_CONFIRMED_PATH, issue 31).
        lazyPage('email-confirmed', async () => ({
          Component: (await import('@client/features/auth/routes/email-confirmed'))
            .EmailConfirmedRoute,
        })),
        lazyPage('reset-password', async () => ({
          Component: (await import('@client/features/auth/routes/reset-password'))
            .ResetPasswordRoute,
        })),
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
                loadChunk(async () => {
                  const m = await import('./routes/dashboard-index');
                  return {
                    Component: m.DashboardIndex,
                    loader: m.dashboardIndexLoader(queryClient),
                  };
                }),
            },
            lazyPage('myorders', async () => {
              const m = await import('@client/features/buying/routes/my-orders');
              return { Component: m.MyOrdersRoute, loader: m.myOrdersLoader(queryClient) };
            }),
            lazyPage('payment/:id', async () => {
              const m = await import('@client/features/payment/routes/payment');
              return { Component: m.PaymentRoute, loader: m.paymentLoader(queryClient) };
            }),
            lazyPage('orders/:id', async () => {
              const m = await import('@client/features/sale/routes/sale');
              return { Component: m.SaleRoute, loader: m.saleLoader(queryClient) };
            }),
            lazyPage('messages', async () => {
              const m = await import('@client/features/messages/routes/messages');
              return { Component: m.MessagesRoute, loader: m.messagesLoader(queryClient) };
            }),
            lazyPage('messages/:id', async () => {
              const m = await import('@client/features/messages/routes/conversation');
              return { Component: m.ConversationRoute, loader: m.conversationLoader(queryClient) };
            }),
            lazyPage('settings', async () => {
              const m = await import('@client/features/notifications/routes/mail-settings');
              return { Component: m.MailSettingsRoute, loader: m.mailSettingsLoader(queryClient) };
            }),
            // A person's own reports of listings and sellers (issue 34): buyers and sellers.
            lazyPage('reports', async () => {
              const m = await import('@client/features/reports/routes/my-reports');
              return { Component: m.MyReportsRoute, loader: m.myReportsLoader(queryClient) };
            }),
            lazyPage('mywishlist', async () => {
              const m = await import('@client/features/buying/routes/my-wish-list');
              return { Component: m.MyWishListRoute, loader: m.myWishListLoader(queryClient) };
            }),
            lazyPage(
              'saved-searches',
              async () => {
                const m = await import('@client/features/buying/routes/saved-searches');
                return {
                  Component: m.SavedSearchesRoute,
                  loader: m.savedSearchesLoader(queryClient),
                };
              },
              buyer,
            ),
            lazyPage(
              'addaproduct',
              async () => {
                const m = await import('@client/features/selling/routes/add-product');
                return { Component: m.AddProductRoute, loader: m.addProductLoader(queryClient) };
              },
              seller,
            ),
            lazyPage(
              'addmany',
              async () => {
                const m = await import('@client/features/selling/routes/add-many');
                return { Component: m.AddManyRoute, loader: m.addManyLoader(queryClient) };
              },
              seller,
            ),
            lazyPage(
              'myproducts',
              async () => {
                const m = await import('@client/features/selling/routes/my-products');
                return { Component: m.MyProductsRoute, loader: m.myProductsLoader(queryClient) };
              },
              seller,
            ),
            lazyPage(
              'myproducts/:id/photos',
              async () => {
                const m = await import('@client/features/selling/routes/product-photos');
                return {
                  Component: m.ProductPhotosRoute,
                  loader: m.productPhotosLoader(queryClient),
                };
              },
              seller,
            ),
            lazyPage(
              'myproducts/:id/edit',
              async () => {
                const m = await import('@client/features/selling/routes/edit-product');
                return { Component: m.EditProductRoute, loader: m.editProductLoader(queryClient) };
              },
              seller,
            ),
            lazyPage(
              'mysales',
              async () => {
                const m = await import('@client/features/sale/routes/my-sales');
                return { Component: m.MySalesRoute, loader: m.mySalesLoader(queryClient) };
              },
              seller,
            ),
            lazyPage(
              'payouts',
              async () => {
                const m = await import('@client/features/payouts/routes/payouts');
                return { Component: m.PayoutsRoute, loader: m.payoutsLoader(queryClient) };
              },
              seller,
            ),
            lazyPage(
              'overview',
              async () => {
                const m = await import('@client/features/admin/routes/overview');
                return { Component: m.OverviewRoute, loader: m.overviewLoader(queryClient) };
              },
              admin,
            ),
            lazyPage(
              'review',
              async () => {
                const m = await import('@client/features/admin/routes/review');
                return { Component: m.ReviewRoute, loader: m.reviewLoader(queryClient) };
              },
              admin,
            ),
            lazyPage(
              'allseller',
              async () => {
                const m = await import('@client/features/admin/routes/all-sellers');
                return { Component: m.AllSellersRoute, loader: m.allSellersLoader(queryClient) };
              },
              admin,
            ),
            lazyPage(
              'allbuyer',
              async () => {
                const m = await import('@client/features/admin/routes/all-buyers');
                return { Component: m.AllBuyersRoute, loader: m.allBuyersLoader(queryClient) };
              },
              admin,
            ),
            lazyPage(
              'banned',
              async () => {
                const m = await import('@client/features/admin/routes/banned');
                return { Component: m.BannedRoute, loader: m.bannedLoader(queryClient) };
              },
              admin,
            ),
            lazyPage(
              'blocked-imeis',
              async () => {
                const m = await import('@client/features/admin/routes/blocked-imeis');
                return {
                  Component: m.BlockedImeisRoute,
                  loader: m.blockedImeisLoader(queryClient),
                };
              },
              admin,
            ),
            lazyPage(
              'reported',
              async () => {
                const m = await import('@client/features/messages/routes/reported');
                return { Component: m.ReportedRoute, loader: m.reportedLoader(queryClient) };
              },
              admin,
            ),
            lazyPage(
              'finance',
              async () => {
                const m = await import('@client/features/admin/routes/finance');
                return { Component: m.FinanceRoute, loader: m.financeLoader(queryClient) };
              },
              admin,
            ),
            lazyPage(
              'disputes',
              async () => {
                const m = await import('@client/features/sale/routes/disputes');
                return { Component: m.DisputesRoute, loader: m.disputesLoader(queryClient) };
              },
              admin,
            ),
          ],
        },
        { path: CATCH_ALL, Component: NotFound },
      ],
    },
  ];
}
