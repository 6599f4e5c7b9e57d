import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import type { MutationConfig } from './query-client';

/**
 * A feature's mutation hook: what it sends, the page's feedback (`config`) first, then the
 * queries the write changed are refreshed (`refreshed` names their keys, from the answer). Its
 * own module, so TanStack Query's mutation code loads with the pages that write, not with `/`.
 */
export function useRefreshingMutation<TData, TVariables>(
  mutationFn: (variables: TVariables) => Promise<TData>,
  refreshed: (data: TData) => readonly QueryKey[],
  { onSuccess, ...config }: MutationConfig<TData, TVariables> = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn,
    onSuccess: async (...args) => {
      await onSuccess?.(...args);
      await Promise.all(
        refreshed(args[0]).map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      );
    },
  });
}
