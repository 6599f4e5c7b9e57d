import { type Answer, apiRequest } from '@client/lib/api-client';
import { apiPath, callPaths } from '@shared/call-paths';
import { infiniteQueryOptions } from '@tanstack/react-query';

export type AccountKind = 'seller' | 'buyer';

/** All sellers or all buyers, newest first, a page at a time (following the Link header). */
export const accountsQueryOptions = (kind: AccountKind) => {
  return infiniteQueryOptions({
    queryKey: ['users', kind],
    queryFn: ({ pageParam }) => apiRequest<Answer<'listSellers' | 'listBuyers'>>(pageParam),
    initialPageParam: apiPath(kind === 'seller' ? callPaths.listSellers : callPaths.listBuyers),
    getNextPageParam: (last) => last.next ?? undefined,
  });
};

export const verifySeller = async (email: string) =>
  (
    await apiRequest<Answer<'verifySeller'>>(apiPath(callPaths.verifySeller, { email }), {
      method: 'PUT',
    })
  ).data;

export const deleteAccount = async (id: string) =>
  (
    await apiRequest<Answer<'deleteUser'>>(
      `${apiPath(callPaths.deleteUser)}?id=${encodeURIComponent(id)}`,
      {
        method: 'DELETE',
      },
    )
  ).data;
