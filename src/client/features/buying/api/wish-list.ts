import { type Answer, apiGet, apiRequest } from '@client/lib/api-client';
import { apiPath, callPaths } from '@shared/call-paths';
import { queryOptions } from '@tanstack/react-query';

export const wishListQueryOptions = (email: string) =>
  queryOptions({
    queryKey: ['wishlist', email],
    queryFn: () =>
      apiGet<Answer<'wishList'>>(
        `${apiPath(callPaths.wishList)}?email=${encodeURIComponent(email)}`,
      ),
  });

export const removeFromWishList = async (id: string) =>
  (
    await apiRequest<Answer<'removeFromWishList'>>(apiPath(callPaths.removeFromWishList, { id }), {
      method: 'DELETE',
    })
  ).data;
