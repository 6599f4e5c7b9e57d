import { apiGet, apiRequest } from '@client/lib/api-client';
import { apiPath, calls } from '@shared/api';
import { queryOptions } from '@tanstack/react-query';

export const wishListQueryOptions = (email: string) =>
  queryOptions({
    queryKey: ['wishlist', email],
    queryFn: () =>
      apiGet(
        `${apiPath(calls.wishList.path)}?email=${encodeURIComponent(email)}`,
        calls.wishList.response,
      ),
  });

export const removeFromWishList = async (id: string) =>
  (
    await apiRequest(
      apiPath(calls.removeFromWishList.path, { id }),
      calls.removeFromWishList.response,
      { method: 'DELETE' },
    )
  ).data;
