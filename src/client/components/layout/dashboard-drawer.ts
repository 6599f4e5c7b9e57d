/**
 * Whether the dashboard's drawer (its side menu on small screens) is open. The navbar's menu
 * button opens it and the dashboard layout draws it; they live in different parts of the tree,
 * so they share this one value instead of a hidden checkbox.
 */
import { useSyncExternalStore } from 'react';

/** The drawer's id, for the menu button's aria-controls. */
export const DASHBOARD_DRAWER_ID = 'dashboard-drawer';
/** The menu button's id: focus goes back to it when the drawer closes. */
export const DASHBOARD_MENU_BUTTON_ID = 'dashboard-menu-button';

let open = false;
const listeners = new Set<() => void>();

export function setDashboardDrawerOpen(next: boolean) {
  if (next === open) return;
  open = next;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

export const useDashboardDrawerOpen = () =>
  useSyncExternalStore(
    subscribe,
    () => open,
    () => false,
  );
