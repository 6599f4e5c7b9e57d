import { type Answer, call } from '@client/lib/api-client';
import type { MutationConfig } from '@client/lib/query-client';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

export const wishListQueryOptions = (email: string) =>
  queryOptions({
    queryKey: ['wishlist', email],
    queryFn: () => call('wishList', { query: { email } }),
  });

export const removeFromWishList = (id: string) => call('removeFromWishList', { params: { id } });

export function useRemoveFromWishList(
  email: string,
  { onSuccess, ...config }: MutationConfig<Answer<'removeFromWishList'>, string> = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: removeFromWishList,
    onSuccess: async (...args) => {
      await onSuccess?.(...args);
      await queryClient.invalidateQueries({ queryKey: wishListQueryOptions(email).queryKey });
    },
  });
}
