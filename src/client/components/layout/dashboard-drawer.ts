/**
 * Whether the dashboard's drawer (its side menu on small screens) is open. The navbar's menu
 * button opens it and the dashboard layout draws it; they live in different parts of the tree,
 * so they share this one value instead of a hidden checkbox.
 */
import { useValue, valueStore } from '@client/lib/value-store';

/** The drawer's id, for the menu button's aria-controls. */
export const DASHBOARD_DRAWER_ID = 'dashboard-drawer';
/** The menu button's id: focus goes back to it when the drawer closes. */
export const DASHBOARD_MENU_BUTTON_ID = 'dashboard-menu-button';

const drawer = valueStore(false);

export const setDashboardDrawerOpen = drawer.set;

export const useDashboardDrawerOpen = () => useValue(drawer, false);
