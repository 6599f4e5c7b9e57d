import { type Answer, call, callPage } from '@client/lib/api-client';
import type { MutationConfig } from '@client/lib/query-client';
import { infiniteQueryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { accountsQueryOptions } from './users';

/** Addresses that may not have an account, newest first, a page at a time. */
export const bansQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: ['users', 'banned'],
    queryFn: ({ pageParam }) => callPage('listBans', {}, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });

/** Bans an address; its account, if it has one, goes with it. */
export const banEmail = (email: string) => call('banEmail', { body: { email } });

export function useBanEmail({
  onSuccess,
  ...config
}: MutationConfig<Answer<'banEmail'>, string> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: banEmail,
    onSuccess: async (...args) => {
      await onSuccess?.(...args);
      // The banned address's account is deleted, so the account lists change too.
      await Promise.all(
        [bansQueryOptions(), accountsQueryOptions('seller'), accountsQueryOptions('buyer')].map(
          ({ queryKey }) => queryClient.invalidateQueries({ queryKey }),
        ),
      );
    },
  });
}

export const liftBan = (email: string) => call('liftBan', { query: { email } });

export function useLiftBan({
  onSuccess,
  ...config
}: MutationConfig<Answer<'liftBan'>, string> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: liftBan,
    onSuccess: async (...args) => {
      await onSuccess?.(...args);
      await queryClient.invalidateQueries({ queryKey: bansQueryOptions().queryKey });
    },
  });
}
