/** Role checks keyed by the signed-in user's e-mail (spec section 6). */

import { call } from '@client/lib/api-client';
import { ensureCurrent } from '@client/lib/ensure-current';
import { queryRoots } from '@client/lib/query-keys';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';

export const adminCheckQueryOptions = (email: string) =>
  queryOptions({
    queryKey: [...queryRoots.roles, 'admin', email],
    enabled: email !== '',
    queryFn: () => call('adminCheck', { params: { email } }),
  });

export const sellerCheckQueryOptions = (email: string) =>
  queryOptions({
    queryKey: [...queryRoots.roles, 'seller', email],
    enabled: email !== '',
    queryFn: () => call('sellerCheck', { params: { email } }),
  });

export type Role = 'admin' | 'seller' | 'buyer';

const roleOf = (isAdmin = false, isSeller = false): Role =>
  isAdmin ? 'admin' : isSeller ? 'seller' : 'buyer';

/** The signed-in user's role; `loading` while either check is on its way. */
export function useRole(email: string): { role: Role; loading: boolean } {
  const admin = useQuery(adminCheckQueryOptions(email));
  const seller = useQuery(sellerCheckQueryOptions(email));
  const loading = admin.isPending || seller.isPending;
  return { role: roleOf(admin.data?.isAdmin, seller.data?.isSeller), loading };
}

/** The role once both checks have answered (for route loaders). */
export async function loadRole(queryClient: QueryClient, email: string): Promise<Role> {
  const [{ isAdmin }, { isSeller }] = await Promise.all([
    ensureCurrent(queryClient, adminCheckQueryOptions(email)),
    ensureCurrent(queryClient, sellerCheckQueryOptions(email)),
  ]);
  return roleOf(isAdmin, isSeller);
}
