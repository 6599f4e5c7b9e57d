import { Spinner } from '@client/components/ui/spinner';
import type { Role } from '@client/lib/auth/roles';
import { loadChunk } from '@client/lib/chunk-load';
import { type ComponentType, type LazyExoticComponent, lazy, Suspense } from 'react';
import { useOutletContext } from 'react-router';

const INDEX_PAGES: Record<Role, LazyExoticComponent<ComponentType>> = {
  buyer: lazy(() =>
    loadChunk(() => import('@client/features/buying/routes/my-orders')).then((m) => ({
      default: m.MyOrdersRoute,
    })),
  ),
  seller: lazy(() =>
    loadChunk(() => import('@client/features/selling/routes/my-products')).then((m) => ({
      default: m.MyProductsRoute,
    })),
  ),
  admin: lazy(() =>
    loadChunk(() => import('@client/features/admin/routes/all-sellers')).then((m) => ({
      default: m.AllSellersRoute,
    })),
  ),
};

/** The dashboard's index page by role: buyers see My Orders, sellers My Products, admins All Sellers. */
export function DashboardIndex() {
  const { role } = useOutletContext<{ role: Role }>();
  const Page = INDEX_PAGES[role];
  return (
    <Suspense fallback={<Spinner />}>
      <Page />
    </Suspense>
  );
}
