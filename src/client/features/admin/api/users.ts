import { type Answer, call, callPage } from '@client/lib/api-client';
import type { MutationConfig } from '@client/lib/query-client';
import { infiniteQueryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

export type AccountKind = 'seller' | 'buyer';

const LIST_CALLS = { seller: 'listSellers', buyer: 'listBuyers' } as const;

/** All sellers or all buyers, newest first, a page at a time (following the Link header). */
export const accountsQueryOptions = (kind: AccountKind) =>
  infiniteQueryOptions({
    queryKey: ['users', kind],
    queryFn: ({ pageParam }) => callPage(LIST_CALLS[kind], {}, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });

export const deleteAccount = (id: string) => call('deleteUser', { query: { id } });

export function useDeleteAccount(
  kind: AccountKind,
  { onSuccess, ...config }: MutationConfig<Answer<'deleteUser'>, string> = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: deleteAccount,
    onSuccess: async (...args) => {
      await onSuccess?.(...args);
      await queryClient.invalidateQueries({ queryKey: accountsQueryOptions(kind).queryKey });
    },
  });
}

export const verifySeller = (email: string) => call('verifySeller', { params: { email } });

export function useVerifySeller({
  onSuccess,
  ...config
}: MutationConfig<Answer<'verifySeller'>, string> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: verifySeller,
    onSuccess: async (...args) => {
      await onSuccess?.(...args);
      const [{ modifiedCount }] = args;
      if (modifiedCount > 0)
        await queryClient.invalidateQueries({ queryKey: accountsQueryOptions('seller').queryKey });
    },
  });
}
