import { type Answer, type CallInput, call } from '@client/lib/api-client';
import type { MutationConfig } from '@client/lib/query-client';
import { queryRoots } from '@client/lib/query-keys';
import { useRefreshingMutation } from '@client/lib/use-refreshing-mutation';
import type { PayoutSummary } from '@shared/entities';
import { queryOptions } from '@tanstack/react-query';

/** When to ask again: soon while a payout is on its way, else just after the next one runs. */
export function refreshAfter(summary: PayoutSummary | undefined, now = Date.now()): number | false {
  if (!summary) return false;
  if (summary.sending > 0 || summary.payouts.some((p) => p.status === 'sending')) return 5_000;
  if (!summary.nextPayoutAt) return false;
  const until = Date.parse(summary.nextPayoutAt) - now + 1_000;
  return Math.min(Math.max(until, 2_000), 300_000);
}

/**
 * The seller's money: balances, payout account, payouts and weekly earnings (keyed by the
 * viewer), asked again while a payout is due or on its way, so the page sees it arrive.
 */
export const payoutsQueryOptions = (viewer: string) =>
  queryOptions({
    queryKey: [...queryRoots.payouts, viewer],
    queryFn: () => call('myPayouts'),
    refetchInterval: (query) => refreshAfter(query.state.data),
  });

type Config<K extends Parameters<typeof call>[0], V> = MutationConfig<Answer<K>, V>;

export type AccountInput = CallInput<'setPayoutAccount'>['body'];

export const setPayoutAccount = (body: AccountInput) => call('setPayoutAccount', { body });

export const useSetPayoutAccount = (config?: Config<'setPayoutAccount', AccountInput>) =>
  useRefreshingMutation(setPayoutAccount, () => [queryRoots.payouts], config);

/** With Stripe: the seller's Connect onboarding link, which the browser then follows. */
export const startPayoutOnboarding = (password: string) =>
  call('payoutOnboarding', { body: { password } });
