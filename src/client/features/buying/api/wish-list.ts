import { type Answer, call } from '@client/lib/api-client';
import type { MutationConfig } from '@client/lib/query-client';
import { queryRoots } from '@client/lib/query-keys';
import { useRefreshingMutation } from '@client/lib/use-refreshing-mutation';
import { queryOptions } from '@tanstack/react-query';

export const wishListQueryOptions = (email: string) =>
  queryOptions({
    queryKey: [...queryRoots.wishList, email],
    queryFn: () => call('wishList', { query: { email } }),
  });

export const removeFromWishList = (id: string) => call('removeFromWishList', { params: { id } });

export const useRemoveFromWishList = (
  email: string,
  config?: MutationConfig<Answer<'removeFromWishList'>, string>,
) =>
  useRefreshingMutation(removeFromWishList, () => [wishListQueryOptions(email).queryKey], config);
