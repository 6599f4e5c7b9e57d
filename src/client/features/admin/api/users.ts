import { type Answer, apiRequest } from '@client/lib/api-client';
import { apiPath, callRoutes } from '@shared/call-routes';
import { infiniteQueryOptions } from '@tanstack/react-query';

export type AccountKind = 'seller' | 'buyer';

/** All sellers or all buyers, newest first, a page at a time (following the Link header). */
export const accountsQueryOptions = (kind: AccountKind) => {
  return infiniteQueryOptions({
    queryKey: ['users', kind],
    queryFn: ({ pageParam }) => apiRequest<Answer<'listSellers' | 'listBuyers'>>(pageParam),
    initialPageParam: apiPath(
      kind === 'seller' ? callRoutes.listSellers.path : callRoutes.listBuyers.path,
    ),
    getNextPageParam: (last) => last.next ?? undefined,
  });
};

export const verifySeller = async (email: string) =>
  (
    await apiRequest<Answer<'verifySeller'>>(apiPath(callRoutes.verifySeller.path, { email }), {
      method: 'PUT',
    })
  ).data;

export const deleteAccount = async (id: string) =>
  (
    await apiRequest<Answer<'deleteUser'>>(
      `${apiPath(callRoutes.deleteUser.path)}?id=${encodeURIComponent(id)}`,
      {
        method: 'DELETE',
      },
    )
  ).data;
