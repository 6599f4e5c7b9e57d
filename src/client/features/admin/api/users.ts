import { apiRequest } from '@client/lib/api-client';
import { apiPath, calls } from '@shared/api';
import { infiniteQueryOptions } from '@tanstack/react-query';

export type AccountKind = 'seller' | 'buyer';

/** All sellers or all buyers, newest first, a page at a time (following the Link header). */
export const accountsQueryOptions = (kind: AccountKind) => {
  const call = kind === 'seller' ? calls.listSellers : calls.listBuyers;
  return infiniteQueryOptions({
    queryKey: ['users', kind],
    queryFn: ({ pageParam }) => apiRequest(pageParam, call.response),
    initialPageParam: apiPath(call.path),
    getNextPageParam: (last) => last.next ?? undefined,
  });
};

export const verifySeller = async (email: string) =>
  (
    await apiRequest(apiPath(calls.verifySeller.path, { email }), calls.verifySeller.response, {
      method: 'PUT',
    })
  ).data;

export const deleteAccount = async (id: string) =>
  (
    await apiRequest(
      `${apiPath(calls.deleteUser.path)}?id=${encodeURIComponent(id)}`,
      calls.deleteUser.response,
      {
        method: 'DELETE',
      },
    )
  ).data;
