import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * False while the server renders a page and while the browser hydrates it, true once the page
 * is interactive. A server-rendered control that needs JavaScript stays disabled until then:
 * a click would be lost, and a sign-in form would submit itself natively, password and all.
 */
export const useHydrated = (): boolean =>
  useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
