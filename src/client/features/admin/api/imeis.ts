import { type Answer, call, callPage } from '@client/lib/api-client';
import type { MutationConfig } from '@client/lib/query-client';
import { queryRoots } from '@client/lib/query-keys';
import { useRefreshingMutation } from '@client/lib/use-refreshing-mutation';
import { infiniteQueryOptions } from '@tanstack/react-query';

/** IMEIs blocked as reported stolen (issue 19), newest first, a page at a time. */
export const blockedImeisQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: [...queryRoots.imeis, 'blocked'],
    queryFn: ({ pageParam }) => callPage('listBlockedImeis', {}, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });

export type ImeiBlock = { imei: string; reason: string };

/** Blocks an IMEI; its listings for sale are withdrawn (the answer counts them). */
export const blockImei = (block: ImeiBlock) => call('blockImei', { body: block });

export const useBlockImei = (config?: MutationConfig<Answer<'blockImei'>, ImeiBlock>) =>
  useRefreshingMutation(blockImei, () => [blockedImeisQueryOptions().queryKey], config);

/** Lifts a block; the listings it withdrew stay withdrawn. */
export const unblockImei = (id: string) => call('unblockImei', { params: { id } });

export const useUnblockImei = (config?: MutationConfig<Answer<'unblockImei'>, string>) =>
  useRefreshingMutation(unblockImei, () => [blockedImeisQueryOptions().queryKey], config);
