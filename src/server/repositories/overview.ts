/**
 * The admin's Overview (issue 35, decision 056): what happened each UTC day of a range, counted
 * in SQL over every day of it (generate_series: a quiet day is a row of zeros), and the models
 * sold most in it with their median price, grouped as the price guide groups a model (its
 * `model_key` and storage). One function answers the page and its CSV.
 */
import { sql } from 'drizzle-orm';
import type { Overview } from '../../shared/entities';
import { OVERVIEW_MODELS_MAX, type OverviewRange } from '../../shared/overview';
import { toCsv } from '../csv';
import { type Db, rowsOf } from '../db/client';
import { toDollars } from './money';

type DayRow = {
  day: string;
  listings: number;
  sales: number;
  cents: number;
  completed: number;
  new_sellers: number;
  new_buyers: number;
  disputes: number;
  reports: number;
};
type ModelRow = { model: string; storage: string | null; sales: number; median: number };

export async function overview(db: Db, { from, to }: OverviewRange): Promise<Overview> {
  // The range's first instant and the instant after its last day, in UTC.
  const start = sql`(${from}::date::timestamp at time zone 'UTC')`;
  const end = sql`((${to}::date + 1)::timestamp at time zone 'UTC')`;
  /** Rows of `table` whose `at` falls in the range, counted by UTC day (and `more` besides). */
  const byDay = (at: string, table: string, where = sql`true`, more = sql``) => sql`
    select (${sql.raw(at)} at time zone 'UTC')::date as day, count(*)::int as n ${more}
    from ${sql.raw(table)}
    where ${sql.raw(at)} >= ${start} and ${sql.raw(at)} < ${end} and ${where}
    group by 1`;
  const [days, models] = await Promise.all([
    rowsOf<DayRow>(
      db,
      sql`
        with days as (
          select d::date as day from generate_series(${from}::date, ${to}::date, interval '1 day') d
        ),
        listings as (${byDay('created_at', 'products')}),
        sales as (${byDay('paid_at', 'orders', sql`true`, sql`, sum(price_cents)::bigint as cents`)}),
        completed as (${byDay('completed_at', 'orders')}),
        sellers as (${byDay('created_at', 'users', sql`type = 'seller'`)}),
        buyers as (${byDay('created_at', 'users', sql`type = 'user' and not is_admin`)}),
        disputes as (${byDay('created_at', 'disputes')}),
        reports as (${byDay('created_at', 'reports')})
        select to_char(days.day, 'YYYY-MM-DD') as day,
          coalesce(listings.n, 0) as listings,
          coalesce(sales.n, 0) as sales,
          coalesce(sales.cents, 0)::float8 as cents,
          coalesce(completed.n, 0) as completed,
          coalesce(sellers.n, 0) as new_sellers,
          coalesce(buyers.n, 0) as new_buyers,
          coalesce(disputes.n, 0) as disputes,
          coalesce(reports.n, 0) as reports
        from days
        left join listings using (day)
        left join sales using (day)
        left join completed using (day)
        left join sellers using (day)
        left join buyers using (day)
        left join disputes using (day)
        left join reports using (day)
        order by days.day`,
    ),
    rowsOf<ModelRow>(
      db,
      sql`
        select mode() within group (order by product_name) as model,
          storage,
          count(*)::int as sales,
          round(percentile_cont(0.5) within group (order by price_cents))::float8 as median
        from orders
        where paid_at >= ${start} and paid_at < ${end}
        group by model_key, storage
        order by count(*) desc, model_key, storage
        limit ${OVERVIEW_MODELS_MAX}`,
    ),
  ]);
  return {
    from,
    to,
    days: days.map((d) => ({
      day: d.day,
      listings: Number(d.listings),
      sales: Number(d.sales),
      volume: toDollars(Number(d.cents)),
      completed: Number(d.completed),
      newSellers: Number(d.new_sellers),
      newBuyers: Number(d.new_buyers),
      disputes: Number(d.disputes),
      reports: Number(d.reports),
    })),
    models: models.map((m) => ({
      model: m.model,
      storage: m.storage,
      sales: Number(m.sales),
      median: toDollars(Number(m.median)),
    })),
  };
}

/**
 * The Overview as CSV, from the same figures as the page: one row a day (money in dollars with
 * two decimals), or the busiest models. Model names are sellers' words: the writer neutralises
 * any that would start a formula.
 */
export function overviewCsv(report: Overview, table: 'days' | 'models'): string {
  if (table === 'models')
    return toCsv(
      ['model', 'storage', 'sales', 'median_price'],
      report.models.map((m) => [m.model, m.storage ?? '', m.sales, m.median.toFixed(2)]),
    );
  return toCsv(
    [
      'day',
      'listings',
      'sales',
      'volume',
      'completed',
      'new_sellers',
      'new_buyers',
      'disputes',
      'reports',
    ],
    report.days.map((d) => [
      d.day,
      d.listings,
      d.sales,
      d.volume.toFixed(2),
      d.completed,
      d.newSellers,
      d.newBuyers,
      d.disputes,
      d.reports,
    ]),
  );
}
