import { type Answer, call, callPage } from '@client/lib/api-client';
import type { MutationConfig } from '@client/lib/query-client';
import { queryRoots } from '@client/lib/query-keys';
import { useRefreshingMutation } from '@client/lib/use-refreshing-mutation';
import type { ReviewActionInput } from '@shared/risk';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';

const ROOT = queryRoots.review;

/** The review queue (issue 34): held listings, risky accounts and reports, riskiest first. */
export const reviewQueueQueryOptions = () =>
  queryOptions({ queryKey: [...ROOT, 'queue'], queryFn: () => call('reviewQueue') });

/** The queue's decisions, newest first, a page at a time (following the Link header). */
export const reviewRecordsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: [...ROOT, 'records'],
    queryFn: ({ pageParam }) => callPage('reviewRecords', {}, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });

/** Clears or withdraws a listing, bans an account, or dismisses a report. */
export const takeReviewAction = (input: ReviewActionInput) => call('reviewAction', { body: input });

/**
 * A decision changes more than the queue and its records: a cleared or withdrawn listing is
 * (no longer) on sale, a ban deletes an account with its phones and puts its address on the
 * banned list and its IMEIs on the blocked list, and the reported messages lose its sender.
 */
export const useReviewAction = (
  config?: MutationConfig<Answer<'reviewAction'>, ReviewActionInput>,
) =>
  useRefreshingMutation(
    takeReviewAction,
    () => [
      ROOT,
      queryRoots.products,
      queryRoots.accounts,
      queryRoots.imeis,
      queryRoots.conversations,
    ],
    config,
  );
