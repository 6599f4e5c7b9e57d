import { type Answer, call, callPage } from '@client/lib/api-client';
import type { MutationConfig } from '@client/lib/query-client';
import { queryRoots } from '@client/lib/query-keys';
import { useRefreshingMutation } from '@client/lib/use-refreshing-mutation';
import { infiniteQueryOptions } from '@tanstack/react-query';

export type AccountKind = 'seller' | 'buyer';

const LIST_CALLS = { seller: 'listSellers', buyer: 'listBuyers' } as const;

/** All sellers or all buyers, newest first, a page at a time (following the Link header). */
export const accountsQueryOptions = (kind: AccountKind) =>
  infiniteQueryOptions({
    queryKey: [...queryRoots.accounts, kind],
    queryFn: ({ pageParam }) => callPage(LIST_CALLS[kind], {}, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });

export const deleteAccount = (id: string) => call('deleteUser', { query: { id } });

export const useDeleteAccount = (
  kind: AccountKind,
  config?: MutationConfig<Answer<'deleteUser'>, string>,
) => useRefreshingMutation(deleteAccount, () => [accountsQueryOptions(kind).queryKey], config);

export const verifySeller = (email: string) => call('verifySeller', { params: { email } });

/** The seller list refreshes only when a seller became verified. */
export const useVerifySeller = (config?: MutationConfig<Answer<'verifySeller'>, string>) =>
  useRefreshingMutation(
    verifySeller,
    ({ modifiedCount }) => (modifiedCount > 0 ? [accountsQueryOptions('seller').queryKey] : []),
    config,
  );

export const unverifySeller = (email: string) => call('unverifySeller', { params: { email } });

/** Un-verify (issue 19): the seller list refreshes when a seller was verified and no longer is. */
export const useUnverifySeller = (config?: MutationConfig<Answer<'unverifySeller'>, string>) =>
  useRefreshingMutation(
    unverifySeller,
    ({ modifiedCount }) => (modifiedCount > 0 ? [accountsQueryOptions('seller').queryKey] : []),
    config,
  );
