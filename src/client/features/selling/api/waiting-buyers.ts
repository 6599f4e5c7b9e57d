import { type CallInput, call } from '@client/lib/api-client';
import { queryRoots } from '@client/lib/query-keys';
import { queryOptions } from '@tanstack/react-query';

export type WaitingBuyersQuestion = CallInput<'waitingBuyers'>['query'];

/**
 * How many buyers' saved searches the phone being listed would match (issue 33). Under the saved
 * searches' root: a phone's change may move the count.
 */
export const waitingBuyersQueryOptions = (query: WaitingBuyersQuestion) =>
  queryOptions({
    queryKey: [...queryRoots.savedSearches, 'waiting', query],
    queryFn: () => call('waitingBuyers', { query }),
    // A miss says nothing to the seller (the line stays empty): no point asking again.
    retry: false,
  });
