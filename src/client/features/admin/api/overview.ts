import { call } from '@client/lib/api-client';
import { saveAsFile } from '@client/lib/post-form';
import { queryRoots } from '@client/lib/query-keys';
import {
  isRangeProblem,
  type OverviewRange,
  type RangeProblem,
  readOverviewRange,
  utcDay,
} from '@shared/overview';
import { queryOptions } from '@tanstack/react-query';

/** The range of the address's `from` and `to` (the last 30 days without them), or its problem. */
export function overviewRangeOf(
  search: URLSearchParams,
  today = utcDay(new Date()),
): OverviewRange | RangeProblem {
  const from = search.get('from') || undefined;
  const to = search.get('to') || undefined;
  return readOverviewRange({ from, to }, today);
}

export { isRangeProblem };

/** The admin's figures by day and the busiest models of a range (issue 35). */
export const overviewQueryOptions = ({ from, to }: OverviewRange) =>
  queryOptions({
    queryKey: [...queryRoots.overview, from, to],
    queryFn: () => call('overview', { query: { from, to } }),
  });

/**
 * The range's days (or busiest models) as a CSV file, saved by the browser. The call needs the
 * bearer token, which a plain link cannot send: the answer is fetched, then handed over as a file.
 */
export async function downloadOverviewCsv(
  { from, to }: OverviewRange,
  table: 'days' | 'models',
): Promise<void> {
  const csv = await call('overviewCsv', { query: { from, to, table } });
  saveAsFile(csv, `${table === 'models' ? 'overview-models' : 'overview'}-${from}-to-${to}.csv`);
}
