import { DashboardPage } from '@client/components/layout/dashboard-page';
import { BarChart } from '@client/components/ui/bar-chart';
import { ensureCurrent } from '@client/lib/ensure-current';
import { toastError } from '@client/lib/feedback';
import {
  formatCount,
  formatDate,
  formatDollars,
  formatMoney,
  storageLabel,
} from '@client/lib/format';
import type { Overview, OverviewDay } from '@shared/entities';
import {
  daysBetween,
  lastDays,
  OVERVIEW_DAYS_MAX,
  OVERVIEW_PRESETS,
  type OverviewRange,
  utcDay,
} from '@shared/overview';
import { type QueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Form, Link, type LoaderFunctionArgs, useSearchParams } from 'react-router';
import {
  downloadOverviewCsv,
  isRangeProblem,
  overviewQueryOptions,
  overviewRangeOf,
} from '../api/overview';

/** The Overview's texts (issue 35, not in the spec). */
export const OVERVIEW_TEXT = {
  title: 'Overview',
  range: 'Range',
  lastDays: (days: number) => `${days} days`,
  custom: 'Custom range',
  from: 'From',
  to: 'To',
  show: 'Show',
  rangeHint: `Whole days in UTC, at most ${OVERVIEW_DAYS_MAX}.`,
  heading: (range: OverviewRange) =>
    `${dayText(range.from)} to ${dayText(range.to)} (${daysBetween(range.from, range.to)} days, UTC)`,
  listings: 'Listings',
  sales: 'Sales paid',
  volume: 'Sales volume',
  completed: 'Handovers',
  newSellers: 'New sellers',
  newBuyers: 'New buyers',
  disputes: 'Disputes opened',
  reports: 'Reports made',
  charts: 'Charts by day',
  chartSummary: (what: string, total: string, busiest: string | null) =>
    `${what} by day: ${total} in all${busiest ? `, the busiest day ${busiest}` : ''}. The figures are in the table by day.`,
  busiest: (day: string, value: string) => `${day} with ${value}`,
  byDay: 'By day',
  day: 'Day',
  models: 'Busiest models',
  modelsHint: 'The models paid for most in the range, with their median price.',
  noModels: 'No sales in this range.',
  model: 'Model',
  storage: 'Storage',
  median: 'Median price',
  exportDays: 'Export CSV',
  exportModels: 'Export models CSV',
  exportFailed: 'The CSV could not be downloaded.',
} as const;

export const overviewLoader =
  (queryClient: QueryClient) =>
  async ({ request }: LoaderFunctionArgs) => {
    const range = overviewRangeOf(new URL(request.url).searchParams);
    // A range the server would refuse is not asked for: the page says what is wrong with it.
    if (!isRangeProblem(range)) await ensureCurrent(queryClient, overviewQueryOptions(range));
    return null;
  };

/** A UTC day ('2026-11-23') as the page writes it. */
const dayText = (day: string) => formatDate(`${day}T12:00:00Z`);
const shortDay = (day: string) => dayText(day).replace(/, \d+$/, '');

type Measure = Exclude<keyof OverviewDay, 'day'>;
const sum = (days: readonly OverviewDay[], key: Measure) =>
  days.reduce((total, d) => total + d[key], 0);

/** Every figure of a day: its label and how it is written. */
const MEASURES: { key: Measure; label: string; format: (n: number) => string }[] = [
  { key: 'listings', label: OVERVIEW_TEXT.listings, format: formatCount },
  { key: 'sales', label: OVERVIEW_TEXT.sales, format: formatCount },
  { key: 'volume', label: OVERVIEW_TEXT.volume, format: formatMoney },
  { key: 'completed', label: OVERVIEW_TEXT.completed, format: formatCount },
  { key: 'newSellers', label: OVERVIEW_TEXT.newSellers, format: formatCount },
  { key: 'newBuyers', label: OVERVIEW_TEXT.newBuyers, format: formatCount },
  { key: 'disputes', label: OVERVIEW_TEXT.disputes, format: formatCount },
  { key: 'reports', label: OVERVIEW_TEXT.reports, format: formatCount },
];
/** The figures charted: one series a chart, so no chart needs colour to be read. */
const CHARTED: Measure[] = ['listings', 'sales', 'volume', 'reports'];

function RangePicker({ range }: { range: OverviewRange | null }) {
  const T = OVERVIEW_TEXT;
  const today = utcDay(new Date());
  const hintId = useId();
  return (
    <div className="flex flex-wrap items-end gap-4">
      <nav aria-label={T.range} className="join">
        {OVERVIEW_PRESETS.map((days) => {
          const preset = lastDays(days, today);
          const current = range?.from === preset.from && range.to === preset.to;
          return (
            <Link
              key={days}
              to={`?from=${preset.from}&to=${preset.to}`}
              aria-current={current ? 'page' : undefined}
              className={`btn join-item btn-sm ${current ? 'btn-primary' : ''}`}
            >
              {T.lastDays(days)}
            </Link>
          );
        })}
      </nav>
      <Form
        // Anew for each range, so the fields show the range shown.
        key={`${range?.from}-${range?.to}`}
        method="get"
        className="flex flex-wrap items-end gap-2"
        aria-label={T.custom}
      >
        <label className="flex flex-col gap-1 text-sm">
          {T.from}
          <input
            type="date"
            name="from"
            defaultValue={range?.from}
            required
            aria-describedby={hintId}
            className="input input-sm"
          />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          {T.to}
          <input
            type="date"
            name="to"
            defaultValue={range?.to}
            required
            aria-describedby={hintId}
            className="input input-sm"
          />
        </label>
        <button type="submit" className="btn btn-sm btn-outline">
          {T.show}
        </button>
        <p id={hintId} className="w-full text-sm text-current/80">
          {T.rangeHint}
        </p>
      </Form>
    </div>
  );
}

function ExportButton({
  range,
  table,
  label,
}: {
  range: OverviewRange;
  table: 'days' | 'models';
  label: string;
}) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadOverviewCsv(range, table);
    } catch (error) {
      toastError(error, OVERVIEW_TEXT.exportFailed);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className="btn btn-outline btn-sm" onClick={download} disabled={busy}>
      {busy && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
      {label}
    </button>
  );
}

function Totals({ days }: { days: Overview['days'] }) {
  return (
    <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
      {MEASURES.map((m) => (
        <div key={m.key} className="rounded-box bg-base-200 p-4">
          <dt className="text-sm font-semibold">{m.label}</dt>
          <dd className="text-xl font-bold tabular-nums sm:text-2xl">
            {m.format(sum(days, m.key))}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Charts({ days }: { days: Overview['days'] }) {
  const T = OVERVIEW_TEXT;
  return (
    <section aria-labelledby="charts-heading" className="space-y-3">
      <h2 id="charts-heading" className="text-xl font-semibold">
        {T.charts}
      </h2>
      <div className="grid gap-6 xl:grid-cols-2">
        {MEASURES.filter((m) => CHARTED.includes(m.key)).map((m) => {
          const busiest = days.reduce<OverviewDay | null>(
            (top, d) => (d[m.key] > 0 && (!top || d[m.key] > top[m.key]) ? d : top),
            null,
          );
          return (
            <div key={m.key} className="min-w-0 space-y-1 overflow-hidden">
              <h3 className="font-semibold">{m.label}</h3>
              <BarChart
                summary={T.chartSummary(
                  m.label,
                  m.format(sum(days, m.key)),
                  busiest && T.busiest(dayText(busiest.day), m.format(busiest[m.key])),
                )}
                bars={days.map((d) => ({ label: shortDay(d.day), value: d[m.key] }))}
                format={m.format}
                axisFormat={m.key === 'volume' ? formatDollars : m.format}
                valueName={m.label}
              />
            </div>
          );
        })}
      </div>
    </section>
  );
}

/**
 * The days newest first, every figure in a column: a table that scrolls sideways on a phone (a
 * focusable region, so the keyboard scrolls it too); the charts' text alternative.
 */
function DayTable({ days }: { days: Overview['days'] }) {
  const number = 'text-right tabular-nums';
  return (
    <div className="space-y-2">
      <h2 id="overview-days-heading" className="text-xl font-semibold">
        {OVERVIEW_TEXT.byDay}
      </h2>
      <section
        aria-labelledby="overview-days-heading"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways takes focus, so the keyboard can scroll it
        tabIndex={0}
        className="overflow-x-auto rounded-box ring-1 ring-base-300"
      >
        <table className="table-xs sm:table-sm table whitespace-nowrap">
          <thead className="text-base-content/80">
            <tr>
              <th scope="col">{OVERVIEW_TEXT.day}</th>
              {MEASURES.map((m) => (
                <th key={m.key} scope="col" className="text-right">
                  {m.label}
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
                {MEASURES.map((m) => (
                  <td key={m.key} className={number}>
                    {m.format(d[m.key])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

function Models({ overview }: { overview: Overview }) {
  const T = OVERVIEW_TEXT;
  return (
    <section aria-labelledby="models-heading" className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="models-heading" className="text-xl font-semibold">
          {T.models}
        </h2>
        {overview.models.length > 0 && (
          <ExportButton range={overview} table="models" label={T.exportModels} />
        )}
      </div>
      <p className="text-sm text-current/80">{T.modelsHint}</p>
      {overview.models.length === 0 ? (
        <p>{T.noModels}</p>
      ) : (
        <div className="overflow-x-auto rounded-box ring-1 ring-base-300">
          <table className="table-sm table">
            <thead className="text-base-content/80">
              <tr>
                <th scope="col">{T.model}</th>
                <th scope="col">{T.storage}</th>
                <th scope="col" className="text-right">
                  {T.sales}
                </th>
                <th scope="col" className="text-right">
                  {T.median}
                </th>
              </tr>
            </thead>
            <tbody>
              {overview.models.map((m) => (
                <tr key={`${m.model}-${m.storage}`}>
                  <th scope="row" className="font-normal break-words">
                    {m.model}
                  </th>
                  <td className="whitespace-nowrap">{m.storage ? storageLabel(m.storage) : ''}</td>
                  <td className="text-right tabular-nums">{formatCount(m.sales)}</td>
                  <td className="text-right tabular-nums">{formatMoney(m.median)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function Figures({ range }: { range: OverviewRange }) {
  const { data: overview } = useSuspenseQuery(overviewQueryOptions(range));
  return (
    <>
      <section aria-labelledby="range-heading" className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="range-heading" className="text-xl font-semibold">
            {OVERVIEW_TEXT.heading(overview)}
          </h2>
          <ExportButton range={overview} table="days" label={OVERVIEW_TEXT.exportDays} />
        </div>
        <Totals days={overview.days} />
      </section>
      <Charts days={overview.days} />
      <DayTable days={overview.days} />
      <Models overview={overview} />
    </>
  );
}

/**
 * The admin's Overview (issue 35, decision 056, not in the spec): listings, sales, money, new
 * accounts, disputes and reports by day over a range (7, 30 or 90 days, or any up to 366), with
 * a chart of each main figure, the same days as a table and as CSV, and the busiest models.
 */
export function OverviewRoute() {
  const [search] = useSearchParams();
  const range = overviewRangeOf(search);
  const problem = isRangeProblem(range) ? range : null;
  return (
    <DashboardPage title={OVERVIEW_TEXT.title}>
      <RangePicker range={problem ? null : (range as OverviewRange)} />
      {problem ? (
        <p role="alert" className="alert alert-error">
          {problem.message}
        </p>
      ) : (
        <Figures range={range as OverviewRange} />
      )}
    </DashboardPage>
  );
}
