import { call } from '@client/lib/api-client';
import type { Role } from '@client/lib/auth/roles';
import { queryRoots } from '@client/lib/query-keys';
import { TEXT } from '@shared/texts';
import { useQuery } from '@tanstack/react-query';
import { NavLink } from 'react-router';

/** How many conversations have a message the viewer has not read (the Messages entry's badge). */
function useUnreadConversations(enabled: boolean): number {
  const { data } = useQuery({
    // The Messages page's own query: one cache, refreshed by a message here or told live.
    queryKey: [...queryRoots.conversations, 'list'],
    queryFn: () => call('conversations'),
    enabled,
    refetchInterval: 60_000,
  });
  return data?.filter((c) => c.unread).length ?? 0;
}

const MENUS: Record<Role, { to: string; label: string }[]> = {
  buyer: [
    { to: '/dashboard/myorders', label: TEXT.dashboard.myOrders },
    { to: '/dashboard/mywishlist', label: TEXT.dashboard.myWishList },
    { to: '/dashboard/saved-searches', label: 'Saved searches' },
    { to: '/dashboard/messages', label: 'Messages' },
    { to: '/dashboard/reports', label: 'My reports' },
  ],
  seller: [
    { to: '/dashboard/addaproduct', label: TEXT.dashboard.addProduct },
    { to: '/dashboard/myproducts', label: TEXT.dashboard.myProducts },
    { to: '/dashboard/mysales', label: 'My Sales' },
    { to: '/dashboard/payouts', label: 'Payouts' },
    { to: '/dashboard/messages', label: 'Messages' },
    { to: '/dashboard/reports', label: 'My reports' },
  ],
  admin: [
    // First: how the marketplace is doing (issue 35); then what to look at first (issue 34).
    { to: '/dashboard/overview', label: 'Overview' },
    { to: '/dashboard/review', label: 'Review queue' },
    { to: '/dashboard/allseller', label: TEXT.dashboard.allSellers },
    { to: '/dashboard/allbuyer', label: TEXT.dashboard.allBuyers },
    { to: '/dashboard/banned', label: 'Banned Addresses' },
    { to: '/dashboard/blocked-imeis', label: 'Blocked IMEIs' },
    { to: '/dashboard/disputes', label: 'Disputes' },
    { to: '/dashboard/reported', label: 'Reported messages' },
    { to: '/dashboard/finance', label: 'Finance' },
  ],
};

export function DashboardMenu({ role, onNavigate }: { role: Role; onNavigate: () => void }) {
  const unread = useUnreadConversations(role !== 'admin');
  return (
    <ul className="menu w-64 gap-1 p-4">
      {MENUS[role].map((item) => (
        <li key={item.to}>
          <NavLink
            to={item.to}
            onClick={onNavigate}
            className={({ isActive }) => (isActive ? 'menu-active' : '')}
          >
            {item.label}
            {item.to === '/dashboard/messages' && unread > 0 && (
              <span className="badge badge-primary badge-sm">
                {unread}
                <span className="sr-only"> unread</span>
              </span>
            )}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}
