import type { Role } from '@client/lib/auth/roles';
import { TEXT } from '@shared/texts';
import { NavLink } from 'react-router';

const MENUS: Record<Role, { to: string; label: string }[]> = {
  buyer: [
    { to: '/dashboard/myorders', label: TEXT.dashboard.myOrders },
    { to: '/dashboard/mywishlist', label: TEXT.dashboard.myWishList },
    { to: '/dashboard/messages', label: 'Messages' },
  ],
  seller: [
    { to: '/dashboard/addaproduct', label: TEXT.dashboard.addProduct },
    { to: '/dashboard/myproducts', label: TEXT.dashboard.myProducts },
    { to: '/dashboard/mysales', label: 'My Sales' },
    { to: '/dashboard/messages', label: 'Messages' },
  ],
  admin: [
    { to: '/dashboard/allseller', label: TEXT.dashboard.allSellers },
    { to: '/dashboard/allbuyer', label: TEXT.dashboard.allBuyers },
    { to: '/dashboard/banned', label: 'Banned Addresses' },
    { to: '/dashboard/blocked-imeis', label: 'Blocked IMEIs' },
    { to: '/dashboard/disputes', label: 'Disputes' },
    { to: '/dashboard/reported', label: 'Reported messages' },
  ],
};

export function DashboardMenu({ role, onNavigate }: { role: Role; onNavigate: () => void }) {
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
          </NavLink>
        </li>
      ))}
    </ul>
  );
}
