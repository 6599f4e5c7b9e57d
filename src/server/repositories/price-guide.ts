/**
 * The fair-price guide (issue 19, decision 024): what phones like one sold for, from completed
 * sales of the last PRICE_GUIDE_DAYS days of the same model (`model_key`: lower case, spaces
 * left out, so "iPhone14" is "iPhone 14") and storage, and of the same condition too when that
 * condition alone has PRICE_GUIDE_MIN_SALES of them. A sale's price is what its buyer paid
 * (`orders.price_cents`); its model, storage and condition are the order's own, kept at booking
 * (migration 0009).
 *
 * One person cannot set it (issue 29, decision 038): only sales between unrelated accounts count
 * (`orders.arms_length`, decided at the handover), prices outside Tukey's fences of their set
 * (below Q1 - 1.5 IQR or above Q3 + 1.5 IQR) are left out, and a set speaks only with sales by
 * PRICE_GUIDE_MIN_PARTIES sellers to as many buyers.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { priceGuideQuerySchema, priceHistoryQuerySchema } from '../../shared/api';
import {
  PRICE_GUIDE_DAYS,
  PRICE_GUIDE_MIN_PARTIES,
  PRICE_GUIDE_MIN_SALES,
  PRICE_HISTORY_WEEK_MIN_PARTIES,
  PRICE_HISTORY_WEEKS,
} from '../../shared/constants';
import type { PriceGuide, PriceHistory, PriceVerdict, Product } from '../../shared/entities';
import { type Db, rowsOf } from '../db/client';
import { orders } from '../db/schema';
import { toCents, toDollars } from './money';

export type PriceNote = Product['priceNote'];

/** How far above the median a price is "high": 15 % (decision 024). */
export const HIGH_PRICE_FACTOR = 1.15;

/** The most prices the guide answers for its chart; more sales are sampled evenly. */
export const PRICE_GUIDE_MAX_PRICES = 200;

/** How many interquartile ranges beyond the quartiles a price may be and still count. */
export const OUTLIER_IQRS = 1.5;

/**
 * A sale that counts: handed over (completed) within the guide's window, between accounts not
 * found related. The order of the conditions is the index's (orders_comparable_idx).
 */
const countedSale = (sale: SQL) =>
  sql`${sale}.stage = 'completed' and ${sale}.arms_length and ${sale}.completed_at > now() - make_interval(days => ${PRICE_GUIDE_DAYS})`;

/** The first and third quartiles of the prices (`cents`) of a group, as a float8[2]. */
const QUARTILES = 'percentile_cont(array[0.25, 0.75]::float8[]) within group (order by cents)';

/**
 * The figures of the comparable sales `sales` (a `from orders sale where ...`), of all of them
 * and (suffix `c`) of those where `same` holds (the same condition), each set trimmed to its
 * own fences: count, median, low, high, distinct sellers and buyers, and the fences themselves;
 * with `quartiles`, also the first and third quartiles of the prices kept (q1, q3). One read of the sales (the CTE is materialised once), whatever reads the figures.
 */
const figuresOf = (sales: SQL, same: SQL, { quartiles: withQuartiles = false } = {}) => {
  const fences = (q: string, suffix: string) =>
    sql.raw(
      `${q}[1] - ${OUTLIER_IQRS} * (${q}[2] - ${q}[1]) as lo${suffix}, ${q}[2] + ${OUTLIER_IQRS} * (${q}[2] - ${q}[1]) as hi${suffix}`,
    );
  const quartiles = sql.raw(QUARTILES);
  const of = (kept: string, suffix: string) =>
    sql.raw(`count(*) filter (where ${kept})::int as n${suffix},
        percentile_cont(0.5) within group (order by cents) filter (where ${kept}) as median${suffix},
        min(cents) filter (where ${kept}) as low${suffix},
        max(cents) filter (where ${kept}) as high${suffix},
        count(distinct seller_id) filter (where ${kept})::int as sellers${suffix},
        count(distinct buyer_id) filter (where ${kept})::int as buyers${suffix},
        max(lo${suffix}) as lo${suffix}, max(hi${suffix}) as hi${suffix}${
          withQuartiles
            ? `, (${QUARTILES} filter (where ${kept}))[1] as q1${suffix},
        (${QUARTILES} filter (where ${kept}))[2] as q3${suffix}`
            : ''
        }`);
  return sql`with sale as (
      select sale.price_cents as cents, sale.seller_id, sale.buyer_id, ${same} as same from ${sales}
    ), fence as (
      select ${fences('q', '')}, ${fences('qc', 'c')} from (
        select ${quartiles} as q, ${quartiles} filter (where same) as qc from sale
      ) quartiles
    ), kept as (
      select sale.*, fence.* from sale, fence
    )
    select ${of('cents between lo and hi', '')}, ${of('same and cents between loc and hic', 'c')}
    from kept`;
};

/** Whether figures of `n` sales by `sellers` to `buyers` may speak for the market. */
const enoughSql = (suffix: '' | 'c', minSales: number) =>
  sql.raw(
    `f.n${suffix} >= ${minSales} and f.sellers${suffix} >= ${PRICE_GUIDE_MIN_PARTIES} and f.buyers${suffix} >= ${PRICE_GUIDE_MIN_PARTIES}`,
  );

/**
 * The note on a listed phone's price, as a correlated subquery of the `products` row in the
 * query around it: null unless the phone is for sale and has PRICE_GUIDE_MIN_SALES comparable
 * completed sales (outliers left out) by PRICE_GUIDE_MIN_PARTIES sellers to as many buyers; then
 * `good` at or below their median, `high` above HIGH_PRICE_FACTOR times it. Comparable as the
 * guide counts them: the same condition when it has enough sales of its own, else every
 * condition. It runs once per card and reads only the comparable sales, by the orders' own
 * model, storage and date (orders_comparable_idx, over sales between unrelated accounts only):
 * however many phones of one model are listed. A sold or withdrawn phone does not run it at all
 * (CASE evaluates lazily).
 */
export const priceNoteOf = () => {
  const sale = sql.raw('sale');
  const price = sql.raw('"products"."resell_price_cents"');
  const noteAgainst = (m: SQL) => sql`case
        when ${price} <= ${m} then 'good'
        when ${price} > ${HIGH_PRICE_FACTOR}::float8 * ${m} then 'high'
      end`;
  const sales = sql`${orders} ${sale}
    where ${sale}.model_key = "products"."model_key"
      and ${sale}.storage = "products"."storage"
      and ${countedSale(sale)}`;
  return sql<PriceNote>`(case when "products"."status" = 'available' then (select case
      when ${enoughSql('c', PRICE_GUIDE_MIN_SALES)} then ${noteAgainst(sql.raw('f.medianc'))}
      when ${enoughSql('', PRICE_GUIDE_MIN_SALES)} then ${noteAgainst(sql.raw('f.median'))}
    end
    from (${figuresOf(sales, sql`${sale}.condition = "products"."condition"`)}) f) end)`;
};

/** The same normal form as the generated `products.model_key`, of a model name as typed. */
const modelKeyOf = (modelName: string) =>
  sql`lower(regexp_replace(${modelName}, '[[:space:]]+', '', 'g'))`;

type PriceGuideQuery = z.output<typeof priceGuideQuerySchema>;

type Figures = {
  n: number;
  median: number | null;
  low: number | null;
  high: number | null;
  sellers: number;
  buyers: number;
  lo: number | null;
  hi: number | null;
  /** Only when asked for (`quartiles`): the quartiles of the prices kept. */
  q1?: number | null;
  q3?: number | null;
};
type Row = Figures & { [K in keyof Figures as `${K}c`]: Figures[K] };

const NO_GUIDE: Figures = {
  n: 0,
  median: null,
  low: null,
  high: null,
  sellers: 0,
  buyers: 0,
  lo: null,
  hi: null,
};

/** Whether these figures may speak for the market: sales by several sellers to several buyers. */
const fromSeveral = (f: Figures, minSales: number) =>
  Number(f.n) >= minSales &&
  Number(f.sellers) >= PRICE_GUIDE_MIN_PARTIES &&
  Number(f.buyers) >= PRICE_GUIDE_MIN_PARTIES;

/**
 * The figures a phone of `condition` is compared with, as the guide and the notes choose them:
 * its condition's when they have PRICE_GUIDE_MIN_SALES sales by several parties, else every
 * condition's; none (count 0) unless those are by several parties.
 */
function comparableOf(row: Row | undefined, condition: string | null) {
  const all: Figures = row ?? NO_GUIDE;
  const ofCondition: Figures = row
    ? {
        n: row.nc,
        median: row.medianc,
        low: row.lowc,
        high: row.highc,
        sellers: row.sellersc,
        buyers: row.buyersc,
        lo: row.loc,
        hi: row.hic,
        q1: row.q1c,
        q3: row.q3c,
      }
    : NO_GUIDE;
  const byCondition = condition !== null && fromSeveral(ofCondition, PRICE_GUIDE_MIN_SALES);
  const chosen = byCondition ? ofCondition : all;
  return {
    basis: byCondition ? ('model-storage-condition' as const) : ('model-storage' as const),
    byCondition,
    figures: fromSeveral(chosen, 1) ? chosen : NO_GUIDE,
  };
}

const dollars = (cents: number | null) =>
  cents === null ? null : toDollars(Math.round(Number(cents)));

/**
 * The guide for a phone like `query`: figures of its comparable sales and their prices, outliers
 * left out; none (count 0) unless they are by PRICE_GUIDE_MIN_PARTIES sellers to as many buyers.
 */
export async function priceGuideFor(db: Db, query: PriceGuideQuery): Promise<PriceGuide> {
  const sale = sql.raw('sale');
  const condition = query.condition ?? null;
  const sales = sql`${orders} ${sale}
    where ${sale}.model_key = ${modelKeyOf(query.modelName)}
      and ${sale}.storage = ${query.storage}
      and ${countedSale(sale)}`;
  const [row] = await rowsOf<Row>(
    db,
    figuresOf(sales, sql`${sale}.condition = ${condition}::text`),
  );
  const { basis, byCondition, figures } = comparableOf(row, condition);
  const where = byCondition
    ? sql`${sale}.condition = ${condition}::text and ${sale}.price_cents between ${figures.lo}::float8 and ${figures.hi}::float8`
    : sql`${sale}.price_cents between ${figures.lo}::float8 and ${figures.hi}::float8`;
  return {
    basis,
    days: PRICE_GUIDE_DAYS,
    count: Number(figures.n),
    median: figures.n === 0 ? null : dollars(figures.median),
    low: figures.n === 0 ? null : dollars(figures.low),
    high: figures.n === 0 ? null : dollars(figures.high),
    prices: figures.n === 0 ? [] : (await pricesOf(db, sales, where)).map(toDollars),
  };
}

/**
 * The prices of the sales, lowest first: all of them up to PRICE_GUIDE_MAX_PRICES, else that
 * many evenly spaced by rank, the lowest and the highest included (the first rank of each of
 * PRICE_GUIDE_MAX_PRICES equal slices of the ranks).
 */
async function pricesOf(db: Db, sales: SQL, where: SQL): Promise<number[]> {
  const last = PRICE_GUIDE_MAX_PRICES - 1;
  const rows = await rowsOf<{ cents: number }>(
    db,
    sql`select cents from (
        select sale.price_cents as cents,
          row_number() over (order by sale.price_cents) - 1 as r,
          count(*) over () as n
        from ${sales} and ${where}
      ) ranked
      where n <= ${PRICE_GUIDE_MAX_PRICES} or r = 0
        or (r * ${last}) / nullif(n - 1, 0) > ((r - 1) * ${last}) / nullif(n - 1, 0)
      order by cents`,
  );
  return rows.map((r) => Number(r.cents));
}

type PriceHistoryQuery = z.output<typeof priceHistoryQuerySchema>;

/**
 * The usual prices, in cents, against which a price is low, typical or high (decision 051): from
 * the first quartile of the comparable sales (outliers left out) to the lower of the third
 * quartile and HIGH_PRICE_FACTOR times their median. A card's note is never contradicted: a
 * "low" price is below the median ("Good price"), a "High price" (above HIGH_PRICE_FACTOR times
 * the median) is "high", and a "high" one is above the median (never "Good price"). Rounded
 * inwards to whole cents, so a price in cents compares with them exactly as with the figures.
 */
function typicalOf(figures: Figures) {
  const median = Number(figures.median);
  return {
    low: Math.ceil(Number(figures.q1)),
    median: Math.round(median),
    high: Math.floor(Math.min(Number(figures.q3), HIGH_PRICE_FACTOR * median)),
  };
}

const verdictOf = (cents: number, typical: { low: number; high: number }): PriceVerdict =>
  cents < typical.low ? 'low' : cents > typical.high ? 'high' : 'typical';

type HistoryRow = Row & {
  since: string;
  total: number;
  total_sellers: number;
  total_buyers: number;
  total_low: number | null;
  total_high: number | null;
  points: { week: string; n: number; median: number; low: number; high: number }[] | string;
};

/**
 * A model's sold prices by week (issue 33, decision 051): the sales the guide counts (completed,
 * between unrelated accounts, the same model and storage) of the last PRICE_HISTORY_WEEKS weeks,
 * weeks from Monday (UTC), outside Tukey's fences of the whole history left out; nothing unless
 * the history has PRICE_GUIDE_MIN_SALES by PRICE_GUIDE_MIN_PARTIES sellers to as many buyers,
 * and a week only with sales by PRICE_HISTORY_WEEK_MIN_PARTIES sellers to as many buyers. With
 * the figures of the last PRICE_GUIDE_DAYS days as the guide reads them (the same condition
 * when it has enough): the usual prices and where `price` stands. One statement, one read of
 * the sales by orders_comparable_idx.
 */
export async function priceHistoryFor(db: Db, query: PriceHistoryQuery): Promise<PriceHistory> {
  const sale = sql.raw('sale');
  const condition = query.condition ?? null;
  const since = sql`(date_trunc('week', now() at time zone 'UTC') - make_interval(weeks => ${PRICE_HISTORY_WEEKS - 1})) at time zone 'UTC'`;
  const fence = sql.raw(
    `q[1] - ${OUTLIER_IQRS} * (q[2] - q[1]) as lo, q[2] + ${OUTLIER_IQRS} * (q[2] - q[1]) as hi`,
  );
  const minParties = PRICE_HISTORY_WEEK_MIN_PARTIES;
  const recent = sql`history ${sale} where ${sale}.completed_at > now() - make_interval(days => ${PRICE_GUIDE_DAYS})`;
  const [row] = await rowsOf<HistoryRow>(
    db,
    sql`with history as materialized (
        select ${sale}.price_cents, ${sale}.seller_id, ${sale}.buyer_id, ${sale}.condition,
          ${sale}.completed_at,
          to_char(date_trunc('week', ${sale}.completed_at at time zone 'UTC'), 'YYYY-MM-DD') as week
        from ${orders} ${sale}
        where ${sale}.model_key = ${modelKeyOf(query.modelName)}
          and ${sale}.storage = ${query.storage}
          and ${sale}.stage = 'completed' and ${sale}.arms_length
          and ${sale}.completed_at >= ${since}
      ), history_fence as (
        select ${fence} from (
          select percentile_cont(array[0.25, 0.75]::float8[]) within group (order by price_cents) as q
          from history
        ) quartiles
      ), history_kept as (
        select history.* from history, history_fence
        where history.price_cents between history_fence.lo and history_fence.hi
      ), weekly as (
        select week, count(*)::int as n,
          percentile_cont(0.5) within group (order by price_cents) as median,
          min(price_cents) as low, max(price_cents) as high
        from history_kept group by week
        having count(distinct seller_id) >= ${minParties} and count(distinct buyer_id) >= ${minParties}
      )
      select t.*, f.*,
        (select coalesce(json_agg(weekly order by week), '[]'::json) from weekly) as points
      from (
        select to_char(${since} at time zone 'UTC', 'YYYY-MM-DD') as since,
          count(*)::int as total, count(distinct seller_id)::int as total_sellers,
          count(distinct buyer_id)::int as total_buyers,
          min(price_cents) as total_low, max(price_cents) as total_high
        from history_kept
      ) t, (${figuresOf(recent, sql`${sale}.condition = ${condition}::text`, { quartiles: true })}) f`,
  );
  const speaks =
    row !== undefined &&
    fromSeveral(
      { ...NO_GUIDE, n: row.total, sellers: row.total_sellers, buyers: row.total_buyers },
      PRICE_GUIDE_MIN_SALES,
    );
  const points = !speaks
    ? []
    : (typeof row.points === 'string' ? JSON.parse(row.points) : row.points).map(
        (p: { week: string; n: number; median: number; low: number; high: number }) => ({
          week: p.week,
          count: Number(p.n),
          median: toDollars(Math.round(Number(p.median))),
          low: toDollars(Number(p.low)),
          high: toDollars(Number(p.high)),
        }),
      );
  const { basis, figures } = comparableOf(row, condition);
  const recentSpeaks = fromSeveral(figures, PRICE_GUIDE_MIN_SALES);
  const typical = recentSpeaks ? typicalOf(figures) : null;
  return {
    weeks: PRICE_HISTORY_WEEKS,
    since: row?.since ?? '',
    count: speaks ? Number(row.total) : 0,
    low: speaks ? dollars(row.total_low) : null,
    high: speaks ? dollars(row.total_high) : null,
    points,
    typical: typical && {
      basis,
      days: PRICE_GUIDE_DAYS,
      count: Number(figures.n),
      low: toDollars(typical.low),
      median: toDollars(typical.median),
      high: toDollars(typical.high),
    },
    verdict: typical && query.price !== undefined ? verdictOf(toCents(query.price), typical) : null,
  };
}
