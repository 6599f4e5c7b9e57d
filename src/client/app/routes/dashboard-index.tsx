import { Spinner } from '@client/components/ui/spinner';
import { loadRole, type Role } from '@client/lib/auth/roles';
import { session } from '@client/lib/auth/session';
import { loadChunk } from '@client/lib/chunk-load';
import type { QueryClient } from '@tanstack/react-query';
import { type ComponentType, lazy, Suspense } from 'react';
import { type LoaderFunction, type LoaderFunctionArgs, useOutletContext } from 'react-router';

type IndexPage = {
  Component: ComponentType;
  loader: (queryClient: QueryClient) => LoaderFunction;
};

const INDEX_PAGES: Record<Role, () => Promise<IndexPage>> = {
  buyer: async () => {
    const m = await import('@client/features/buying/routes/my-orders');
    return { Component: m.MyOrdersRoute, loader: m.myOrdersLoader };
  },
  seller: async () => {
    const m = await import('@client/features/selling/routes/my-products');
    return { Component: m.MyProductsRoute, loader: m.myProductsLoader };
  },
  admin: async () => {
    const m = await import('@client/features/admin/routes/all-sellers');
    return { Component: m.AllSellersRoute, loader: m.allSellersLoader };
  },
};

const lazyPage = (role: Role) =>
  lazy(() => loadChunk(INDEX_PAGES[role]).then(({ Component }) => ({ default: Component })));
const PAGES: Record<Role, ComponentType> = {
  buyer: lazyPage('buyer'),
  seller: lazyPage('seller'),
  admin: lazyPage('admin'),
};

/** Loads the page the user's role opens on, and its data, before the dashboard shows it. */
export const dashboardIndexLoader =
  (queryClient: QueryClient) => async (args: LoaderFunctionArgs) => {
    const user = await session.currentUser();
    // Signed out: the dashboard's own loader sends the visitor to sign in.
    if (!user) return null;
    const page = await loadChunk(INDEX_PAGES[await loadRole(queryClient, user.email)]);
    await page.loader(queryClient)(args);
    return null;
  };

/** The dashboard's index page by role: buyers see My Orders, sellers My Products, admins All Sellers. */
export function DashboardIndex() {
  const { role } = useOutletContext<{ role: Role }>();
  const Page = PAGES[role];
  return (
    <Suspense fallback={<Spinner />}>
      <Page />
    </Suspense>
  );
}
