import {
  DASHBOARD_DRAWER_ID,
  DASHBOARD_MENU_BUTTON_ID,
  setDashboardDrawerOpen,
  useDashboardDrawerOpen,
} from '@client/components/layout/dashboard-drawer';
import { MODAL_SHEET, useModalDialog } from '@client/components/ui/modal';
import { Spinner } from '@client/components/ui/spinner';
import { type Role, useRole } from '@client/lib/auth/roles';
import { useAuth } from '@client/lib/auth/use-auth';
import { useWide } from '@client/lib/use-wide';
import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { DashboardMenu } from '../components/dashboard-menu';

/** The side menu by role beside the page; on small screens a drawer the navbar's menu button opens. */
export function DashboardLayout() {
  const { user } = useAuth();
  const { role, loading } = useRole(user?.email ?? '');
  if (!user || loading) return <Spinner label="Loading your dashboard" />;
  return (
    <div className="lg:flex lg:gap-8">
      <nav
        aria-label="Dashboard"
        className="hidden shrink-0 self-start rounded-box bg-base-200 lg:block"
      >
        <DashboardMenu role={role} onNavigate={() => {}} />
      </nav>
      <div className="min-h-[60vh] min-w-0 flex-1">
        <Outlet context={{ role }} />
      </div>
      <DashboardDrawer role={role} />
    </div>
  );
}

/**
 * The menu as a modal drawer on the native <dialog> (`useModalDialog`, decision 062): focus
 * moves in; Tab wraps inside it; Escape, the close button, the dimmed page beside it or choosing
 * a link close it, and focus goes back to the menu button.
 */
function DashboardDrawer({ role }: { role: Role }) {
  const open = useDashboardDrawerOpen();
  const ref = useModalDialog(open);
  const { pathname } = useLocation();

  // Closed when the page changes, when the screen grows wide, and when the dashboard is left.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each new page on purpose
  useEffect(() => setDashboardDrawerOpen(false), [pathname]);
  const wide = useWide();
  useEffect(() => {
    if (wide) setDashboardDrawerOpen(false);
  }, [wide]);
  useEffect(() => () => setDashboardDrawerOpen(false), []);

  const close = () => setDashboardDrawerOpen(false);
  const onClose = () => {
    close();
    document.getElementById(DASHBOARD_MENU_BUTTON_ID)?.focus();
  };
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: its keys (Escape, Tab) are useModalDialog's
    <dialog
      ref={ref}
      id={DASHBOARD_DRAWER_ID}
      aria-label="Dashboard menu"
      className={MODAL_SHEET}
      onClose={onClose}
      // A click beside the menu lands on the <dialog> itself.
      onClick={(event) => event.target === event.currentTarget && close()}
    >
      <div className="h-full w-72 max-w-[85vw] overflow-y-auto overscroll-contain bg-base-200 text-base-content">
        <div className="flex justify-end p-2">
          <button
            type="button"
            className="btn btn-square btn-ghost"
            aria-label="Close dashboard menu"
            onClick={close}
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="h-6 w-6 stroke-current"
              fill="none"
              strokeWidth="2"
            >
              <path d="M6 6l12 12M18 6L6 18" />
            </svg>
          </button>
        </div>
        <nav aria-label="Dashboard">
          <DashboardMenu role={role} onNavigate={close} />
        </nav>
      </div>
    </dialog>
  );
}
