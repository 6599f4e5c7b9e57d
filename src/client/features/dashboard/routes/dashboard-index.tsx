import type { Role } from '@client/lib/auth/roles';
import { TEXT } from '@shared/texts';
import { useOutletContext } from 'react-router';
import { DashboardPage } from './dashboard-page';

const INDEX_TITLE: Record<Role, string> = {
  buyer: TEXT.dashboard.myOrders,
  seller: TEXT.dashboard.myProducts,
  admin: TEXT.dashboard.allSellers,
};

/** The dashboard's index page by role: buyers see My Orders, sellers My Products, admins All Sellers. */
export function DashboardIndex() {
  const { role } = useOutletContext<{ role: Role }>();
  return <DashboardPage title={INDEX_TITLE[role]} />;
}
