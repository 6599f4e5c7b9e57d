import { call } from '@client/lib/api-client';
import { saveAsFile } from '@client/lib/post-form';
import { queryRoots } from '@client/lib/query-keys';
import { queryOptions } from '@tanstack/react-query';

/** The periods the Finance page offers, in days; 30 unless the address says otherwise. */
export const FINANCE_PERIODS = [7, 30, 90] as const;
export type FinancePeriod = (typeof FINANCE_PERIODS)[number];

/** The period of `?days=`, or 30 for anything else. */
export function periodOf(search: URLSearchParams): FinancePeriod {
  const days = Number(search.get('days'));
  return FINANCE_PERIODS.find((p) => p === days) ?? 30;
}

/** The marketplace's money by day over the last `days`, and where it is now (admin). */
export const financeQueryOptions = (days: FinancePeriod) =>
  queryOptions({
    queryKey: [...queryRoots.finance, days],
    queryFn: () => call('finance', { query: { days } }),
  });

/**
 * The same days as a CSV file, saved by the browser. The call needs the bearer token, which a
 * plain link cannot send: the answer is fetched, then handed to the browser as a file.
 */
export async function downloadFinanceCsv(
  days: FinancePeriod,
  period: { from: string; to: string },
): Promise<void> {
  const csv = await call('financeCsv', { query: { days } });
  saveAsFile(csv, `finance-${period.from}-to-${period.to}.csv`);
}
