import { type Answer, apiGet, apiRequest } from '@client/lib/api-client';
import { apiPath, callRoutes } from '@shared/call-routes';
import { queryOptions } from '@tanstack/react-query';

export const wishListQueryOptions = (email: string) =>
  queryOptions({
    queryKey: ['wishlist', email],
    queryFn: () =>
      apiGet<Answer<'wishList'>>(
        `${apiPath(callRoutes.wishList.path)}?email=${encodeURIComponent(email)}`,
      ),
  });

export const removeFromWishList = async (id: string) =>
  (
    await apiRequest<Answer<'removeFromWishList'>>(
      apiPath(callRoutes.removeFromWishList.path, { id }),
      {
        method: 'DELETE',
      },
    )
  ).data;
