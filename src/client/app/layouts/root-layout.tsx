import { Footer } from '@client/components/layout/footer';
import { Navbar } from '@client/components/layout/navbar';
import { Spinner } from '@client/components/ui/spinner';
import { lazy, Suspense } from 'react';
import { Outlet, ScrollRestoration, useNavigation } from 'react-router';

// Shown to signed-in people only: the public pages' first load does not carry it.
const NotificationBell = lazy(() =>
  import('@client/features/notifications/components/notification-bell').then((m) => ({
    default: m.NotificationBell,
  })),
);

/** The public layout: navigation bar, the routed page, footer. */
export function RootLayout({ children }: { children?: React.ReactNode }) {
  const navigation = useNavigation();
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="btn btn-sm sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50"
      >
        Skip to content
      </a>
      <Navbar
        bell={
          <Suspense fallback={null}>
            <NotificationBell />
          </Suspense>
        }
      />
      {navigation.state === 'loading' && (
        <div
          className="fixed top-0 right-0 left-0 z-40 h-1 animate-pulse bg-accent"
          aria-hidden="true"
        />
      )}
      {/* At least a screen tall: the footer starts below the fold, so a page that loads in
          above it never shifts it (CLS). */}
      <main id="main" className="mx-auto min-h-svh w-full max-w-6xl flex-1 px-4 py-6 sm:py-8">
        {children ?? <Outlet />}
      </main>
      <Footer />
      {/* Back and forward return to where the page was left; a new page starts at the top. */}
      <ScrollRestoration />
    </div>
  );
}

export function PageFallback() {
  return <Spinner />;
}
