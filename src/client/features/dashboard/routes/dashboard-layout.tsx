import { Spinner } from '@client/components/ui/spinner';
import { useRole } from '@client/lib/auth/roles';
import { useAuth } from '@client/lib/auth/use-auth';
import { useRef } from 'react';
import { Outlet } from 'react-router';
import { DashboardMenu } from '../components/dashboard-menu';

export const DASHBOARD_DRAWER_ID = 'dashboard-drawer';

/** The side menu by role (a drawer the navbar's menu icon opens on small screens) beside the page. */
export function DashboardLayout() {
  const { user } = useAuth();
  const { role, loading } = useRole(user?.email ?? '');
  const toggle = useRef<HTMLInputElement>(null);
  if (!user || loading) return <Spinner label="Loading your dashboard" />;
  return (
    <div className="drawer lg:drawer-open">
      <input
        id={DASHBOARD_DRAWER_ID}
        ref={toggle}
        type="checkbox"
        className="drawer-toggle"
        aria-label="Dashboard menu"
      />
      <div className="drawer-content min-h-[60vh] lg:pl-8">
        <Outlet context={{ role }} />
      </div>
      <nav aria-label="Dashboard" className="drawer-side z-40 lg:rounded-box lg:bg-base-200">
        <label
          htmlFor={DASHBOARD_DRAWER_ID}
          aria-label="Close dashboard menu"
          className="drawer-overlay"
        />
        <div className="min-h-full bg-base-200">
          <DashboardMenu
            role={role}
            onNavigate={() => {
              if (toggle.current) toggle.current.checked = false;
            }}
          />
        </div>
      </nav>
    </div>
  );
}
