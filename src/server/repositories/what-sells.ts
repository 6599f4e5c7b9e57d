/**
 * What sells (issue 35, decision 055): a seller's own figures. Per listing (their newest
 * WHAT_SELLS_MAX_LISTINGS, My Products' page): views, wish lists, questions, bookings and days
 * listed, each an indexed count. Per model and storage they list: the market's median days from
 * listing to the booking that sold, and the median price of phones like theirs that sold within
 * QUICK_SALE_DAYS days, from the sales the price guide counts (completed, between unrelated
 * accounts, the last PRICE_GUIDE_DAYS days) and only with its minimums: PRICE_GUIDE_MIN_SALES
 * sales by PRICE_GUIDE_MIN_PARTIES sellers to as many buyers, so one person cannot make them.
 * By week (from Monday, UTC), the last WHAT_SELLS_WEEKS: views of their phones and their
 * completed sales.
 */
import { sql } from 'drizzle-orm';
import {
  PRICE_GUIDE_DAYS,
  PRICE_GUIDE_MIN_PARTIES,
  PRICE_GUIDE_MIN_SALES,
  QUICK_SALE_DAYS,
  WHAT_SELLS_MAX_LISTINGS,
  WHAT_SELLS_MAX_MODELS,
  WHAT_SELLS_WEEKS,
} from '../../shared/constants';
import type { WhatSells } from '../../shared/entities';
import { type Db, rowsOf } from '../db/client';
import type { Caller } from '../plugins/auth';
import { toDollars } from './money';

type ListingRow = {
  id: string;
  views: number;
  wish_lists: number;
  questions: number;
  bookings: number;
  days_listed: number;
};

type ModelRow = {
  model_name: string;
  storage: string;
  n: number;
  sellers: number;
  buyers: number;
  median_days: number | null;
  quick_n: number;
  quick_sellers: number;
  quick_buyers: number;
  quick_median: number | null;
};

type WeekRow = { week: string; views: number; sales: number };

const enough = (n: number, sellers: number, buyers: number) =>
  Number(n) >= PRICE_GUIDE_MIN_SALES &&
  Number(sellers) >= PRICE_GUIDE_MIN_PARTIES &&
  Number(buyers) >= PRICE_GUIDE_MIN_PARTIES;

export async function whatSellsFor(db: Db, seller: Caller): Promise<WhatSells> {
  const listings = await rowsOf<ListingRow>(
    db,
    sql`select p.id,
        (select count(*)::int from product_views v where v.product_id = p.id) as views,
        (select count(*)::int from wishlist_items w where w.product_id = p.id) as wish_lists,
        (select count(*)::int from conversations c where c.product_id = p.id) as questions,
        (select count(*)::int from orders o where o.product_id = p.id) as bookings,
        greatest(0, floor(extract(epoch from (coalesce(
          case when p.status = 'sold' then (
            select max(o.created_at) from orders o
            where o.product_id = p.id and o.stage in ('paid', 'completed', 'disputed')
          ) end, now()) - p.created_at)) / 86400))::int as days_listed
      from products p
      where p.seller_email = ${seller.email}
      order by p.seq desc
      limit ${WHAT_SELLS_MAX_LISTINGS}`,
  );

  const models = await rowsOf<ModelRow>(
    db,
    sql`with mine as (
        select distinct on (p.model_key, p.storage) p.model_key, p.storage, p.model_name, p.seq
        from products p
        where p.seller_email = ${seller.email}
        order by p.model_key, p.storage, p.seq desc
      ), chosen as (
        select * from mine order by seq desc limit ${WHAT_SELLS_MAX_MODELS}
      ), sold as (
        select chosen.model_key, chosen.storage, sale.price_cents, sale.seller_id, sale.buyer_id,
          extract(epoch from (sale.created_at - listed.created_at)) / 86400 as days
        from chosen
        join orders sale on sale.model_key = chosen.model_key and sale.storage = chosen.storage
          and sale.stage = 'completed' and sale.arms_length
          and sale.completed_at > now() - make_interval(days => ${PRICE_GUIDE_DAYS})
        join products listed on listed.id = sale.product_id
      )
      select chosen.model_name, chosen.storage,
        count(sold.days)::int as n,
        count(distinct sold.seller_id)::int as sellers,
        count(distinct sold.buyer_id)::int as buyers,
        percentile_cont(0.5) within group (order by floor(sold.days)) as median_days,
        count(*) filter (where sold.days <= ${QUICK_SALE_DAYS})::int as quick_n,
        count(distinct sold.seller_id) filter (where sold.days <= ${QUICK_SALE_DAYS})::int as quick_sellers,
        count(distinct sold.buyer_id) filter (where sold.days <= ${QUICK_SALE_DAYS})::int as quick_buyers,
        percentile_cont(0.5) within group (order by sold.price_cents)
          filter (where sold.days <= ${QUICK_SALE_DAYS}) as quick_median
      from chosen
      left join sold on sold.model_key = chosen.model_key and sold.storage = chosen.storage
      group by chosen.model_key, chosen.storage, chosen.model_name, chosen.seq
      order by chosen.seq desc`,
  );

  const weeks = await rowsOf<WeekRow>(
    db,
    sql`with weeks as (
        select generate_series(
          date_trunc('week', now() at time zone 'UTC') - make_interval(weeks => ${WHAT_SELLS_WEEKS - 1}),
          date_trunc('week', now() at time zone 'UTC'),
          interval '1 week'
        ) as week
      )
      select to_char(weeks.week, 'YYYY-MM-DD') as week,
        (select count(*)::int from product_views v
          join products p on p.id = v.product_id
          where p.seller_email = ${seller.email}
            and v.day >= weeks.week::date and v.day < (weeks.week + interval '1 week')::date
        ) as views,
        (select count(*)::int from orders o
          where o.seller_id = ${seller.id} and o.stage = 'completed'
            and o.completed_at >= weeks.week at time zone 'UTC'
            and o.completed_at < (weeks.week + interval '1 week') at time zone 'UTC'
        ) as sales
      from weeks
      order by weeks.week`,
  );

  return {
    listings: listings.map((r) => ({
      _id: r.id,
      views: Number(r.views),
      wishLists: Number(r.wish_lists),
      questions: Number(r.questions),
      bookings: Number(r.bookings),
      daysListed: Number(r.days_listed),
    })),
    models: models.map((r) => ({
      modelName: r.model_name,
      storage: r.storage,
      medianDaysToSell:
        enough(r.n, r.sellers, r.buyers) && r.median_days !== null ? Number(r.median_days) : null,
      quickSalePrice:
        enough(r.quick_n, r.quick_sellers, r.quick_buyers) && r.quick_median !== null
          ? toDollars(Math.round(Number(r.quick_median)))
          : null,
    })),
    days: PRICE_GUIDE_DAYS,
    quickDays: QUICK_SALE_DAYS,
    weeks: weeks.map((r) => ({ week: r.week, views: Number(r.views), sales: Number(r.sales) })),
  };
}
