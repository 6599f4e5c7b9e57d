import { QUERY_CACHE_MS } from '@shared/constants';
import { QueryClient, type UseMutationOptions } from '@tanstack/react-query';
import { ApiError } from './transport';

/**
 * How often a read is asked again: a 4xx will not change; a network fault might; a 503 (the
 * database failing over, issue 32) will within seconds, so a page waits it out instead of
 * showing an error for a moment's outage.
 */
function retriesOf(error: Error): number {
  if (!(error instanceof ApiError)) return 2;
  if (error.status === 503) return 5;
  return error.status >= 400 && error.status < 500 ? 0 : 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        gcTime: QUERY_CACHE_MS,
        staleTime: 30_000,
        retry: (failures, error) => failures < retriesOf(error),
        // A 503 says when to ask again (a database failover takes a few seconds): as it says.
        retryDelay: (failures, error) =>
          error instanceof ApiError && error.status === 503 && error.retryAfterSeconds
            ? error.retryAfterSeconds * 1000
            : Math.min(1000 * 2 ** failures, 30_000),
      },
    },
  });
}

/**
 * What a page adds to a feature's mutation hook: its feedback (toasts). The hook keeps the rest:
 * what the mutation sends, and which queries it refreshes once the page's `onSuccess` has run.
 */
export type MutationConfig<TData, TVariables> = Pick<
  UseMutationOptions<TData, Error, TVariables>,
  'onSuccess' | 'onError'
>;
