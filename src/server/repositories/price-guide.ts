/**
 * The fair-price guide (issue 19, decision 024): what phones like one sold for, from completed
 * sales of the last PRICE_GUIDE_DAYS days of the same model and storage.
 */
import { sql } from 'drizzle-orm';
import { PRICE_GUIDE_DAYS, PRICE_GUIDE_MIN_SALES } from '../../shared/constants';
import type { Product } from '../../shared/entities';
import { orders, products } from '../db/schema';

export type PriceNote = Product['priceNote'];

/** How far above the median a price is "high": 15 % (decision 024). */
export const HIGH_PRICE_FACTOR = 1.15;

/**
 * The note on a listed phone's price, as a correlated subquery of the `products` row in the
 * query around it: `good` at or below the median of at least PRICE_GUIDE_MIN_SALES comparable
 * completed sales, `high` above HIGH_PRICE_FACTOR times it, else null.
 */
export const priceNoteOf = () => {
  const comparable = sql.raw('comparable');
  const sale = sql.raw('sale');
  return sql<PriceNote>`(select case
      when count(*) < ${PRICE_GUIDE_MIN_SALES} then null
      when "products"."resell_price_cents" <= percentile_cont(0.5) within group (order by ${sale}.price_cents) then 'good'
      when "products"."resell_price_cents" > ${HIGH_PRICE_FACTOR} * percentile_cont(0.5) within group (order by ${sale}.price_cents) then 'high'
    end
    from ${orders} ${sale}
    join ${products} ${comparable} on ${comparable}.id = ${sale}.product_id
    where ${comparable}.model_key = "products"."model_key"
      and ${comparable}.storage = "products"."storage"
      and ${sale}.stage = 'completed'
      and ${sale}.completed_at > now() - make_interval(days => ${PRICE_GUIDE_DAYS}))`;
};
