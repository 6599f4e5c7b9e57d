import type { EnsureQueryDataOptions, QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * A loader's read: the cached answer unless an event marked it stale (or there is none), then the
 * server's. A page shown again after a change shows the change, not its old state for a moment.
 */
export function ensureCurrent<T, K extends QueryKey>(
  queryClient: QueryClient,
  options: EnsureQueryDataOptions<T, Error, T, K>,
): Promise<T> {
  const state = queryClient.getQueryState(options.queryKey);
  return state?.isInvalidated
    ? queryClient.fetchQuery(options)
    : queryClient.ensureQueryData(options);
}
