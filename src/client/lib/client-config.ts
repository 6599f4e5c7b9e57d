/** Which services are live (GET /api/config): Google sign-in, payments, images, fees, payouts. */
import { queryRoots } from '@client/lib/query-keys';
import type { FeeRule } from '@shared/fees';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from './api-client';

export const clientConfigQueryOptions = () =>
  queryOptions({
    queryKey: queryRoots.config,
    queryFn: () => call('config'),
    staleTime: Number.POSITIVE_INFINITY,
  });

/**
 * The marketplace's fee rule, for what a seller is told they will receive; undefined until the
 * configuration has loaded (pages that show it load it in their loader).
 */
export function useFeeRule(): FeeRule | undefined {
  return useQuery({ ...clientConfigQueryOptions(), select: (config) => config.fees }).data;
}

/** How long payouts wait after a change of payout account; undefined until the config loaded. */
export function useAccountHoldHours(): number | undefined {
  return useQuery({
    ...clientConfigQueryOptions(),
    select: (config) => config.payouts.accountHoldHours,
  }).data;
}
