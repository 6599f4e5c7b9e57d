import { TEXT } from '@shared/texts';
import { Link, NavLink } from 'react-router';

const links = [
  { to: '/', label: TEXT.nav.home, end: true },
  { to: '/dashboard', label: TEXT.nav.dashboard, end: false },
  { to: '/blog', label: TEXT.nav.blog, end: false },
] as const;

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `btn btn-ghost btn-sm px-2 sm:px-3 ${isActive ? 'text-primary underline underline-offset-4' : ''}`;

export function Navbar() {
  return (
    <header className="sticky top-0 z-30 border-b border-base-300 bg-base-100/95 backdrop-blur">
      <nav aria-label="Main" className="navbar mx-auto max-w-6xl gap-2 px-3">
        <div className="flex-1">
          <Link
            to="/"
            className="flex items-center gap-2 text-lg font-extrabold text-primary"
            aria-label="Phone Market home"
          >
            <img src="/favicon.svg" alt="" width="32" height="32" />
            <span className="hidden sm:inline">Phone Market</span>
          </Link>
        </div>
        <ul className="flex items-center gap-1">
          {links.map((l) => (
            <li key={l.to}>
              <NavLink to={l.to} end={l.end} className={linkClass}>
                {l.label}
              </NavLink>
            </li>
          ))}
          <li>
            <Link to="/signin" className="btn btn-primary btn-sm">
              {TEXT.nav.signIn}
            </Link>
          </li>
        </ul>
      </nav>
    </header>
  );
}
