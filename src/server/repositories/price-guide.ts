/**
 * The fair-price guide (issue 19, decision 024): what phones like one sold for, from completed
 * sales of the last PRICE_GUIDE_DAYS days of the same model (`model_key`: lower case, spaces
 * left out, so "iPhone14" is "iPhone 14") and storage, and of the same condition too when that condition alone has
 * PRICE_GUIDE_MIN_SALES of them. A sale's price is what its buyer paid (`orders.price_cents`);
 * its model, storage and condition are the order's own, kept at booking (migration 0009).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { priceGuideQuerySchema } from '../../shared/api';
import { PRICE_GUIDE_DAYS, PRICE_GUIDE_MIN_SALES } from '../../shared/constants';
import type { PriceGuide, Product } from '../../shared/entities';
import { type Db, rowsOf } from '../db/client';
import { orders } from '../db/schema';
import { toDollars } from './money';

export type PriceNote = Product['priceNote'];

/** How far above the median a price is "high": 15 % (decision 024). */
export const HIGH_PRICE_FACTOR = 1.15;

/** The most prices the guide answers for its chart; more sales are sampled evenly. */
export const PRICE_GUIDE_MAX_PRICES = 200;

/** A sale that counts: handed over (completed) within the guide's window. */
const countedSale = (sale: SQL) =>
  sql`${sale}.stage = 'completed' and ${sale}.completed_at > now() - make_interval(days => ${PRICE_GUIDE_DAYS})`;

/**
 * The note on a listed phone's price, as a correlated subquery of the `products` row in the
 * query around it: null unless the phone is for sale and has PRICE_GUIDE_MIN_SALES comparable
 * completed sales; then `good` at or below their median, `high` above HIGH_PRICE_FACTOR times it.
 * Comparable as the guide counts them: the same condition when it has enough sales of its own,
 * else every condition. It runs once per card and reads only the comparable sales, by the
 * orders' own model, storage and date (orders_comparable_idx): however many phones of one model
 * are listed. A sold or withdrawn phone does not run it at all (CASE evaluates lazily).
 */
export const priceNoteOf = () => {
  const sale = sql.raw('sale');
  const price = sql.raw('"products"."resell_price_cents"');
  const sameCondition = sql`${sale}.condition = "products"."condition"`;
  const median = sql`percentile_cont(0.5) within group (order by ${sale}.price_cents)`;
  const medianOfCondition = sql`${median} filter (where ${sameCondition})`;
  const noteAgainst = (m: SQL) => sql`case
        when ${price} <= ${m} then 'good'
        when ${price} > ${HIGH_PRICE_FACTOR}::float8 * ${m} then 'high'
      end`;
  return sql<PriceNote>`(case when "products"."status" = 'available' then (select case
      when count(*) filter (where ${sameCondition}) >= ${PRICE_GUIDE_MIN_SALES} then ${noteAgainst(medianOfCondition)}
      when count(*) >= ${PRICE_GUIDE_MIN_SALES} then ${noteAgainst(median)}
    end
    from ${orders} ${sale}
    where ${sale}.model_key = "products"."model_key"
      and ${sale}.storage = "products"."storage"
      and ${countedSale(sale)}) end)`;
};

/** The same normal form as the generated `products.model_key`, of a model name as typed. */
const modelKeyOf = (modelName: string) =>
  sql`lower(regexp_replace(${modelName}, '[[:space:]]+', '', 'g'))`;

type PriceGuideQuery = z.output<typeof priceGuideQuerySchema>;

type Figures = { n: number; median: number | null; low: number | null; high: number | null };

/** The guide for a phone like `query`: figures of its comparable sales and their prices. */
export async function priceGuideFor(db: Db, query: PriceGuideQuery): Promise<PriceGuide> {
  const sale = sql.raw('sale');
  const condition = query.condition ?? null;
  const sales = sql`${orders} ${sale}
    where ${sale}.model_key = ${modelKeyOf(query.modelName)}
      and ${sale}.storage = ${query.storage}
      and ${countedSale(sale)}`;
  const sameCondition = sql`${sale}.condition = ${condition}`;
  const median = sql`percentile_cont(0.5) within group (order by ${sale}.price_cents)`;
  const [row] = await rowsOf<{
    n: number;
    median: number | null;
    low: number | null;
    high: number | null;
    nc: number;
    medianc: number | null;
    lowc: number | null;
    highc: number | null;
  }>(
    db,
    sql`select count(*)::int as n, ${median} as median,
        min(${sale}.price_cents) as low, max(${sale}.price_cents) as high,
        count(*) filter (where ${sameCondition})::int as nc,
        ${median} filter (where ${sameCondition}) as medianc,
        min(${sale}.price_cents) filter (where ${sameCondition}) as lowc,
        max(${sale}.price_cents) filter (where ${sameCondition}) as highc
      from ${sales}`,
  );
  const byCondition = condition !== null && Number(row?.nc ?? 0) >= PRICE_GUIDE_MIN_SALES;
  const figures: Figures = byCondition
    ? {
        n: Number(row?.nc),
        median: row?.medianc ?? null,
        low: row?.lowc ?? null,
        high: row?.highc ?? null,
      }
    : {
        n: Number(row?.n ?? 0),
        median: row?.median ?? null,
        low: row?.low ?? null,
        high: row?.high ?? null,
      };
  const dollars = (cents: number | null) =>
    cents === null ? null : toDollars(Math.round(Number(cents)));
  return {
    basis: byCondition ? 'model-storage-condition' : 'model-storage',
    days: PRICE_GUIDE_DAYS,
    count: figures.n,
    median: figures.n === 0 ? null : dollars(figures.median),
    low: figures.n === 0 ? null : dollars(figures.low),
    high: figures.n === 0 ? null : dollars(figures.high),
    prices:
      figures.n === 0
        ? []
        : (await pricesOf(db, sales, byCondition ? sameCondition : sql`true`)).map(toDollars),
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
