import { TOAST_GUTTER_PX } from '@shared/constants';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Toaster } from 'react-hot-toast';

/** react-hot-toast's defaults are the spec's toast limits (20 at once, 4 s, 2 s for success). */
export function Providers({
  queryClient,
  children,
}: {
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster gutter={TOAST_GUTTER_PX} />
    </QueryClientProvider>
  );
}
