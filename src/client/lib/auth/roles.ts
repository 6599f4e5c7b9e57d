/** Role checks keyed by the signed-in user's e-mail (spec section 6). */
import { type Answer, apiGet } from '@client/lib/api-client';
import { apiPath, callPaths } from '@shared/call-paths';
import { queryOptions, useQuery } from '@tanstack/react-query';

export const adminCheckQueryOptions = (email: string) =>
  queryOptions({
    queryKey: ['users', 'admin', email],
    enabled: email !== '',
    queryFn: () => apiGet<Answer<'adminCheck'>>(apiPath(callPaths.adminCheck, { email })),
  });

export const sellerCheckQueryOptions = (email: string) =>
  queryOptions({
    queryKey: ['users', 'seller', email],
    enabled: email !== '',
    queryFn: () => apiGet<Answer<'sellerCheck'>>(apiPath(callPaths.sellerCheck, { email })),
  });

export type Role = 'admin' | 'seller' | 'buyer';

/** The signed-in user's role; `loading` while either check is on its way. */
export function useRole(email: string): { role: Role; loading: boolean } {
  const admin = useQuery(adminCheckQueryOptions(email));
  const seller = useQuery(sellerCheckQueryOptions(email));
  const loading = admin.isPending || seller.isPending;
  const role: Role = admin.data?.isAdmin ? 'admin' : seller.data?.isSeller ? 'seller' : 'buyer';
  return { role, loading };
}
