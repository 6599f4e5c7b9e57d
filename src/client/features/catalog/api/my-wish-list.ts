import { call } from '@client/lib/api-client';
import { queryRoots } from '@client/lib/query-keys';
import { queryOptions } from '@tanstack/react-query';

/**
 * The signed-in buyer's wish list, so a phone on it says so and offers to remove it (issue 31).
 * Its key is My WishList's (buying's `wishListQueryOptions`): one cache, so a change on either
 * page shows on the other.
 */
export const myWishListQueryOptions = (email: string) =>
  queryOptions({
    queryKey: [...queryRoots.wishList, email],
    queryFn: () => call('wishList', { query: { email } }),
  });

export const removeFromWishList = (id: string) => call('removeFromWishList', { params: { id } });
