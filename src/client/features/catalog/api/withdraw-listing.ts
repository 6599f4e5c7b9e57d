/** An admin takes a listing off the market from its page (issue 29): the product graph's `withdraw`. */
import { type Answer, call } from '@client/lib/api-client';
import type { MutationConfig } from '@client/lib/query-client';
import { queryRoots } from '@client/lib/query-keys';
import { useRefreshingMutation } from '@client/lib/use-refreshing-mutation';

export const withdrawListing = (id: string) => call('withdrawProduct', { params: { id } });

/** The phone leaves every public list, and its page says it is no longer listed. */
export const useWithdrawListing = (config?: MutationConfig<Answer<'withdrawProduct'>, string>) =>
  useRefreshingMutation(withdrawListing, () => [queryRoots.products], config);
