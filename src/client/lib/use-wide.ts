import { useSyncExternalStore } from 'react';

/**
 * From this width a page's side panel stands beside its content (the phone lists' filters, the
 * dashboard's menu) and its drawer is not used: Tailwind's `lg`.
 */
const WIDE = '(min-width: 64rem)';

const subscribe = (onChange: () => void) => {
  const wide = window.matchMedia(WIDE);
  wide.addEventListener('change', onChange);
  return () => wide.removeEventListener('change', onChange);
};

/** Whether the screen is that wide (false on the server, and in the render that hydrates). */
export const useWide = () =>
  useSyncExternalStore(
    subscribe,
    () => window.matchMedia(WIDE).matches,
    () => false,
  );
