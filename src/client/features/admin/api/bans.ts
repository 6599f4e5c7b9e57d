import { type Answer, call, callPage } from '@client/lib/api-client';
import type { MutationConfig } from '@client/lib/query-client';
import { queryRoots } from '@client/lib/query-keys';
import { useRefreshingMutation } from '@client/lib/use-refreshing-mutation';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { accountsQueryOptions } from './users';

/** Addresses that may not have an account, newest first, a page at a time. */
export const bansQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: [...queryRoots.accounts, 'banned'],
    queryFn: ({ pageParam }) => callPage('listBans', {}, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });

/** Bans an address; its account, if it has one, goes with it. */
export const banEmail = (email: string) => call('banEmail', { body: { email } });

/** The banned address's account is deleted, so the account lists change too. */
export const useBanEmail = (config?: MutationConfig<Answer<'banEmail'>, string>) =>
  useRefreshingMutation(
    banEmail,
    () => [
      bansQueryOptions().queryKey,
      accountsQueryOptions('seller').queryKey,
      accountsQueryOptions('buyer').queryKey,
    ],
    config,
  );

export const liftBan = (email: string) => call('liftBan', { query: { email } });

export const useLiftBan = (config?: MutationConfig<Answer<'liftBan'>, string>) =>
  useRefreshingMutation(liftBan, () => [bansQueryOptions().queryKey], config);
