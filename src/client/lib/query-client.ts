import { QUERY_CACHE_MS } from '@shared/constants';
import { QueryClient, type UseMutationOptions } from '@tanstack/react-query';
import { ApiError } from './transport';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        gcTime: QUERY_CACHE_MS,
        staleTime: 30_000,
        // A 4xx will not change on retry; a network fault might.
        retry: (failures, error) =>
          failures < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
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
