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

/**
 * The dashboard's menu, styled with utilities rather than daisyUI's `menu`: that component's
 * `:hover` and `:active` rules match any element, which made every tap on every page restyle
 * the tapped element's whole ancestry (decision 065).
 */
export function DashboardMenu({ role, onNavigate }: { role: Role; onNavigate: () => void }) {
  const unread = useUnreadConversations(role !== 'admin');
  return (
    <ul className="flex w-64 flex-col gap-1 p-4 text-sm">
      {MENUS[role].map((item) => (
        <li key={item.to}>
          <NavLink
            to={item.to}
            onClick={onNavigate}
            className={({ isActive }) =>
              `flex items-center gap-2 rounded-field px-3 py-1.5 ${isActive ? 'bg-neutral text-neutral-content' : 'hover:bg-base-content/10'}`
            }
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
