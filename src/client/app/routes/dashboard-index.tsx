import { DashboardPage } from '@client/components/layout/dashboard-page';
import { Spinner } from '@client/components/ui/spinner';
import type { Role } from '@client/lib/auth/roles';
import { loadChunk } from '@client/lib/chunk-load';
import { TEXT } from '@shared/texts';
import { lazy, Suspense } from 'react';
import { useOutletContext } from 'react-router';

const MyProducts = lazy(() =>
  loadChunk(() => import('@client/features/selling/routes/my-products')).then((m) => ({
    default: m.MyProductsRoute,
  })),
);

const AllSellers = lazy(() =>
  loadChunk(() => import('@client/features/admin/routes/all-sellers')).then((m) => ({
    default: m.AllSellersRoute,
  })),
);

const INDEX_TITLE: Record<Role, string> = {
  buyer: TEXT.dashboard.myOrders,
  seller: TEXT.dashboard.myProducts,
  admin: TEXT.dashboard.allSellers,
};

/** The dashboard's index page by role: buyers see My Orders, sellers My Products, admins All Sellers. */
export function DashboardIndex() {
  const { role } = useOutletContext<{ role: Role }>();
  if (role !== 'buyer') {
    return (
      <Suspense fallback={<Spinner />}>
        {role === 'seller' ? <MyProducts /> : <AllSellers />}
      </Suspense>
    );
  }
  return <DashboardPage title={INDEX_TITLE[role]} />;
}
