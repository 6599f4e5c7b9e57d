import { session } from '@client/lib/auth/session';
import { useAuth } from '@client/lib/auth/use-auth';
import { TEXT } from '@shared/texts';
import type { ReactNode } from 'react';
import { Link, NavLink, useLocation, useRevalidator } from 'react-router';
import {
  DASHBOARD_DRAWER_ID,
  DASHBOARD_MENU_BUTTON_ID,
  setDashboardDrawerOpen,
  useDashboardDrawerOpen,
} from './dashboard-drawer';
import { NavSearch } from './nav-search';

const links = [
  { to: '/', label: TEXT.nav.home, end: true },
  { to: '/dashboard', label: TEXT.nav.dashboard, end: false },
  { to: '/blog', label: TEXT.nav.blog, end: false },
] as const;

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `btn btn-ghost btn-sm px-2 sm:px-3 ${isActive ? 'text-primary underline underline-offset-4' : ''}`;

/** `bell`: what a signed-in person sees beside Sign out (the app gives the notification bell). */
export function Navbar({ bell }: { bell?: ReactNode }) {
  const { pathname } = useLocation();
  const inDashboard = pathname === '/dashboard' || pathname.startsWith('/dashboard/');
  const drawerOpen = useDashboardDrawerOpen();

  return (
    <>
      <header className="sticky top-0 z-30 border-b border-base-300 bg-base-100/95 backdrop-blur">
        <nav aria-label="Main" className="navbar mx-auto max-w-6xl gap-1 px-3">
          <div className="flex flex-1 items-center gap-1">
            {inDashboard && (
              <button
                type="button"
                id={DASHBOARD_MENU_BUTTON_ID}
                className="btn btn-square btn-ghost lg:hidden"
                aria-label="Open dashboard menu"
                aria-haspopup="dialog"
                aria-expanded={drawerOpen}
                aria-controls={DASHBOARD_DRAWER_ID}
                onClick={() => setDashboardDrawerOpen(true)}
              >
                <svg
                  aria-hidden="true"
                  viewBox="0 0 24 24"
                  className="h-6 w-6 stroke-current"
                  fill="none"
                  strokeWidth="2"
                >
                  <path d="M4 6h16M4 12h16M4 18h16" />
                </svg>
              </button>
            )}
            <Link
              to="/"
              className="flex items-center gap-2 text-lg font-extrabold text-primary"
              aria-label="Phone Market home"
            >
              <img src="/favicon.svg" alt="" width="32" height="32" />
              <span className="hidden sm:inline">Phone Market</span>
            </Link>
            <NavSearch id="nav-search-wide" className="mx-3 hidden max-w-sm flex-1 md:flex" />
          </div>
          <ul className="flex items-center gap-1">
            {links.map((l) => (
              <li key={l.to}>
                <NavLink to={l.to} end={l.end} className={linkClass}>
                  {l.label}
                </NavLink>
              </li>
            ))}
            <SessionControls bell={bell} />
          </ul>
        </nav>
      </header>
      {/* A phone's bar has no room for the box: it gets its own row, which scrolls away with the
        page instead of staying on screen, rendered by the server so nothing shifts. */}
      <div className="border-b border-base-300 px-3 py-2 md:hidden">
        <NavSearch id="nav-search-narrow" className="w-full" />
      </div>
    </>
  );
}

/**
 * What depends on the session: Sign in or Sign out, and the bell. Its own component, so that the
 * session's answer re-renders these two items rather than the whole bar (issue 23).
 */
function SessionControls({ bell }: { bell?: ReactNode }) {
  const { user, loading } = useAuth();
  const revalidator = useRevalidator();
  return (
    <>
      {user && bell && <li className="flex w-8 justify-center">{bell}</li>}
      <li className="min-w-20 text-right">
        {loading ? (
          <span
            className="loading loading-dots loading-sm"
            role="status"
            aria-label="Checking your session"
          />
        ) : user ? (
          <button
            type="button"
            className="btn btn-outline btn-primary btn-sm"
            onClick={async () => {
              await session.signOut();
              revalidator.revalidate();
            }}
          >
            {TEXT.nav.signOut}
          </button>
        ) : (
          <Link to="/signin" className="btn btn-primary btn-sm">
            {TEXT.nav.signIn}
          </Link>
        )}
      </li>
    </>
  );
}
