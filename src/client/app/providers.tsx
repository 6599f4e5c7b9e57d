import { BESIDE_MODALS } from '@client/lib/beside-modals';
import { useToastsWanted } from '@client/lib/toast';
import { useHydrated } from '@client/lib/use-hydrated';
import { TOAST_GUTTER_PX } from '@shared/constants';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect } from 'react';

/**
 * Loaded with the first toast (lib/toast.ts), never before: toasts raised earlier wait in
 * react-hot-toast's store until the toaster mounts. Mounted only in the browser, after
 * hydration: a server-rendered page has no toasts, and its HTML stays the same as the browser's
 * first render.
 */
const Toaster = lazy(() => import('react-hot-toast').then((m) => ({ default: m.Toaster })));

/** react-hot-toast's defaults are the spec's toast limits (20 at once, 4 s, 2 s for success). */
export function Providers({
  queryClient,
  children,
}: {
  queryClient: QueryClient;
  children: ReactNode;
}) {
  const hydrated = useHydrated();
  const toastsWanted = useToastsWanted();
  useEffect(() => {
    // Buttons take clicks from now on (styles.css).
    document.documentElement.dataset.hydrated = '';
  }, []);
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      {hydrated && toastsWanted && (
        <Suspense fallback={null}>
          <Toaster gutter={TOAST_GUTTER_PX} containerClassName={BESIDE_MODALS} />
        </Suspense>
      )}
    </QueryClientProvider>
  );
}
