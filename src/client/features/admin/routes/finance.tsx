import { DashboardPage } from '@client/components/layout/dashboard-page';
import { BarChart } from '@client/components/ui/bar-chart';
import { ensureCurrent } from '@client/lib/ensure-current';
import { toastError } from '@client/lib/feedback';
import { formatCount, formatDate, formatDollars, formatMoney } from '@client/lib/format';
import type { Finance } from '@shared/entities';
import { type QueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, type LoaderFunctionArgs, useSearchParams } from 'react-router';
import {
  downloadFinanceCsv,
  FINANCE_PERIODS,
  type FinancePeriod,
  financeQueryOptions,
  periodOf,
} from '../api/finance';

/** The Finance page's texts (issue 30, not in the spec). */
export const FINANCE_TEXT = {
  title: 'Finance',
  now: 'Now',
  held: 'Held on cards',
  heldHint: "Paid by buyers, waiting for the handover: not the marketplace's yet.",
  pending: 'Pending for sellers',
  pendingHint: "Handed over, in the buyers' report window.",
  frozen: 'Frozen',
  frozenHint: 'Reported by a buyer, waiting for a decision.',
  available: 'Owed to sellers',
  availableHint: 'Theirs to be paid out (less what sellers owe after refunds).',
  sending: 'On its way to sellers',
  sendingHint: 'Payouts sent, not yet arrived.',
  failedPayouts: 'Failed payouts',
  failedPayoutsHint: 'Refused by the bank; the money is back in the balance.',
  withoutAccount: 'Sellers without a payout account',
  withoutAccountHint: 'They keep their balance until they add one.',
  period: 'Period',
  lastDays: (days: number) => `${days} days`,
  totals: (days: number) => `The last ${days} days`,
  sales: 'Sales',
  volume: 'Sales volume',
  fees: 'Fees earned',
  refunds: 'Refunds',
  paidOut: 'Paid out',
  day: 'Day',
  byDay: 'By day',
  chartSummary: (days: number, volume: string, fees: string, best: string | null) =>
    `Sales volume and fees by day, the last ${days} days: ${volume} of sales, ${fees} in fees${
      best ? `, the busiest day ${best}` : ''
    }.`,
  busiest: (day: string, volume: string) => `${day} with ${volume}`,
  download: 'Download CSV',
  downloadFailed: 'The CSV could not be downloaded.',
} as const;

export const financeLoader =
  (queryClient: QueryClient) =>
  async ({ request }: LoaderFunctionArgs) => {
    await ensureCurrent(
      queryClient,
      financeQueryOptions(periodOf(new URL(request.url).searchParams)),
    );
    return null;
  };

/** A UTC day ('2026-11-23') as the page writes it. */
const dayText = (day: string) => formatDate(`${day}T12:00:00Z`);
const shortDay = (day: string) => dayText(day).replace(/, \d+$/, '');

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="rounded-box bg-base-200 p-4">
      <dt className="text-sm font-semibold">{label}</dt>
      <dd className="text-xl font-bold tabular-nums sm:text-2xl">{value}</dd>
      {hint && <dd className="mt-1 text-sm text-current/80">{hint}</dd>}
    </div>
  );
}

function NowFigures({ now }: { now: Finance['now'] }) {
  const T = FINANCE_TEXT;
  return (
    <section aria-labelledby="now-heading" className="space-y-3">
      <h2 id="now-heading" className="text-xl font-semibold">
        {T.now}
      </h2>
      <dl className="grid grid-cols-2 gap-3 xl:grid-cols-4">
        <Figure label={T.held} value={formatMoney(now.held)} hint={T.heldHint} />
        <Figure label={T.pending} value={formatMoney(now.pending)} hint={T.pendingHint} />
        <Figure label={T.frozen} value={formatMoney(now.frozen)} hint={T.frozenHint} />
        <Figure label={T.available} value={formatMoney(now.available)} hint={T.availableHint} />
        <Figure label={T.sending} value={formatMoney(now.sending)} hint={T.sendingHint} />
        <Figure
          label={T.failedPayouts}
          value={formatCount(now.failedPayouts)}
          hint={T.failedPayoutsHint}
        />
        <Figure
          label={T.withoutAccount}
          value={formatCount(now.sellersWithoutAccount)}
          hint={T.withoutAccountHint}
        />
      </dl>
    </section>
  );
}

function PeriodPicker({ days }: { days: FinancePeriod }) {
  return (
    <nav aria-label={FINANCE_TEXT.period} className="join">
      {FINANCE_PERIODS.map((p) => (
        <Link
          key={p}
          to={`?days=${p}`}
          aria-current={p === days ? 'page' : undefined}
          className={`btn join-item btn-sm ${p === days ? 'btn-primary' : ''}`}
        >
          {FINANCE_TEXT.lastDays(p)}
        </Link>
      ))}
    </nav>
  );
}

const sum = (days: Finance['days'], key: 'volume' | 'fees' | 'refunds' | 'paidOut' | 'sales') =>
  days.reduce((total, d) => total + d[key], 0);

const COLUMN = {
  day: 'Day',
  sales: 'Sales',
  volume: 'Volume',
  fees: 'Fees',
  refunds: 'Refunds',
  paidOut: 'Paid out',
  failed: 'Failed payouts',
} as const;

function Period({ finance, days }: { finance: Finance; days: FinancePeriod }) {
  const T = FINANCE_TEXT;
  const [downloading, setDownloading] = useState(false);
  const volume = sum(finance.days, 'volume');
  const fees = sum(finance.days, 'fees');
  const busiest = finance.days.reduce<Finance['days'][number] | null>(
    (top, d) => (d.volume > 0 && (!top || d.volume > top.volume) ? d : top),
    null,
  );
  const download = async () => {
    setDownloading(true);
    try {
      await downloadFinanceCsv(days, finance);
    } catch (error) {
      toastError(error, T.downloadFailed);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <section aria-labelledby="period-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="period-heading" className="text-xl font-semibold">
          {T.totals(days)}
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          <PeriodPicker days={days} />
          <button
            type="button"
            className="btn btn-outline btn-sm"
            onClick={download}
            disabled={downloading}
          >
            {downloading && (
              <span className="loading loading-spinner loading-xs" aria-hidden="true" />
            )}
            {T.download}
          </button>
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-5">
        <Figure label={T.sales} value={formatCount(sum(finance.days, 'sales'))} />
        <Figure label={T.volume} value={formatMoney(volume)} />
        <Figure label={T.fees} value={formatMoney(fees)} />
        <Figure label={T.refunds} value={formatMoney(sum(finance.days, 'refunds'))} />
        <Figure label={T.paidOut} value={formatMoney(sum(finance.days, 'paidOut'))} />
      </dl>
      <BarChart
        summary={T.chartSummary(
          days,
          formatMoney(volume),
          formatMoney(fees),
          busiest && T.busiest(dayText(busiest.day), formatMoney(busiest.volume)),
        )}
        bars={finance.days.map((d) => ({ label: shortDay(d.day), value: d.volume, part: d.fees }))}
        format={formatMoney}
        axisFormat={formatDollars}
        valueName={T.volume}
        partName={T.fees}
      />
      <DayTable days={finance.days} />
    </section>
  );
}

/**
 * The days newest first, every figure in a column: a compact table that scrolls sideways on a
 * phone (as a focusable region, so it scrolls from the keyboard too) rather than 90 cards.
 */
function DayTable({ days }: { days: Finance['days'] }) {
  const money = 'text-right tabular-nums';
  return (
    <div className="space-y-2">
      <h3 id="by-day-heading" className="text-lg font-semibold">
        {FINANCE_TEXT.byDay}
      </h3>
      <section
        aria-labelledby="by-day-heading"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways takes focus, so the keyboard can scroll it
        tabIndex={0}
        className="overflow-x-auto rounded-box ring-1 ring-base-300"
      >
        <table className="table-xs sm:table-sm table whitespace-nowrap">
          <thead className="text-base-content/80">
            <tr>
              {Object.values(COLUMN).map((c, i) => (
                <th key={c} scope="col" className={i > 0 ? 'text-right' : ''}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {[...days].reverse().map((d) => (
              <tr key={d.day}>
                <th scope="row" className="font-normal">
                  {dayText(d.day)}
                </th>
                <td className={money}>{formatCount(d.sales)}</td>
                <td className={money}>{formatMoney(d.volume)}</td>
                <td className={money}>{formatMoney(d.fees)}</td>
                <td className={money}>{formatMoney(d.refunds)}</td>
                <td className={money}>{formatMoney(d.paidOut)}</td>
                <td className={money}>{formatCount(d.failedPayouts)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

/**
 * Finance (issue 30, admin, not in the spec): where the money is now, and sales, fees, refunds
 * and payouts by day over 7, 30 or 90 days, with a chart and the same days as CSV.
 */
export function FinanceRoute() {
  const [search] = useSearchParams();
  const days = periodOf(search);
  const { data: finance } = useSuspenseQuery(financeQueryOptions(days));
  return (
    <DashboardPage title={FINANCE_TEXT.title}>
      <NowFigures now={finance.now} />
      <Period finance={finance} days={days} />
    </DashboardPage>
  );
}
