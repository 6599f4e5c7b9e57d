/** Role checks keyed by the signed-in user's e-mail (spec section 6). */
import { type Answer, apiGet } from '@client/lib/api-client';
import { apiPath, callRoutes } from '@shared/call-routes';
import { queryOptions, useQuery } from '@tanstack/react-query';

export const adminCheckQueryOptions = (email: string) =>
  queryOptions({
    queryKey: ['users', 'admin', email],
    enabled: email !== '',
    queryFn: () => apiGet<Answer<'adminCheck'>>(apiPath(callRoutes.adminCheck.path, { email })),
  });

export const sellerCheckQueryOptions = (email: string) =>
  queryOptions({
    queryKey: ['users', 'seller', email],
    enabled: email !== '',
    queryFn: () => apiGet<Answer<'sellerCheck'>>(apiPath(callRoutes.sellerCheck.path, { email })),
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
