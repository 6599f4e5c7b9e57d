import { call } from '@client/lib/api-client';
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
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
  const link = document.createElement('a');
  link.href = url;
  // The server's file name (its content-disposition), which a fetched file does not keep.
  link.download = `${table === 'models' ? 'overview-models' : 'overview'}-${from}-to-${to}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has started the download; revoking at once can cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
