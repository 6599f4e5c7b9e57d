/**
 * Similar phones for sale (issue 33, decision 050): up to SIMILAR_PHONES phones like one, for
 * its page. First those of the same model (`model_key`, as the price guide compares models:
 * decision 035) and storage; then those of the same brand whose price is within
 * SIMILAR_PRICE_BAND of its price. Within each, the closest price first, then the newest. Only
 * phones for sale, never the phone itself; a phone's seller is joined, so a removed (or banned,
 * which removes) seller's phones are never among them.
 *
 * Each group is read from its side of the phone's price outwards, on a partial index of the
 * phones for sale (migration 0027): the cheaper ones from the price down, the dearer ones from
 * the price up, at most SIMILAR_PHONES each, so the cost is the same for a model listed once and
 * for one listed a hundred thousand times. The brand's group is read only when the model's is
 * short, and then the model's phones it must skip are fewer than SIMILAR_PHONES.
 */
import { and, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import { SIMILAR_PHONES, SIMILAR_PRICE_BAND } from '../../shared/constants';
import type { Product } from '../../shared/entities';
import { type Db, rowsOf } from '../db/client';
import { products, users } from '../db/schema';
import { productOf, productSellerColumns } from './products';

/** The prices a tier may have, in cents: any (the model's), or the band around the price. */
type Band = { low: number; high: number };
const ANY_PRICE: Band = { low: 0, high: 2 ** 31 - 1 };

type Phone = {
  id: string;
  modelKey: string;
  storage: string;
  categoryId: string;
  resellPriceCents: number;
};

/**
 * The ids of at most `limit` phones for sale other than `phone` where `where` holds (over
 * `p`), priced within `band`, closest to the phone's price first, then newest: the closest
 * below and the closest at or above, each read along the index, then merged.
 */
function nearestIds(phone: Phone, where: SQL, { low, high }: Band, limit: number) {
  const price = phone.resellPriceCents;
  const side = (range: SQL, order: SQL) => sql`(select p.id, p.resell_price_cents, p.seq
    from ${products} p join ${users} u on u.email = p.seller_email
    where p.status = 'available' and ${where} and ${range} and p.id <> ${phone.id}
    order by ${order}, p.seq desc nulls last limit ${limit})`;
  return sql`select id from (
      ${side(sql`p.resell_price_cents >= ${price} and p.resell_price_cents <= ${high}`, sql`p.resell_price_cents`)}
      union all
      ${side(sql`p.resell_price_cents < ${price} and p.resell_price_cents >= ${low}`, sql`p.resell_price_cents desc`)}
    ) near
    order by abs(resell_price_cents - ${price}), seq desc nulls last
    limit ${limit}`;
}

const sameModel = (phone: Phone) =>
  sql`p.model_key = ${phone.modelKey} and p.storage = ${phone.storage}`;

/** The brand's phones in the band that are not of the model's group (read before). */
const sameBrand = (phone: Phone) =>
  sql`p.category_id = ${phone.categoryId} and not (${sameModel(phone)})`;

/** Phones like `id` for sale, best first; undefined when there is no phone `id`. */
export async function findSimilarPhones(db: Db, id: string): Promise<Product[] | undefined> {
  const [phone] = await db
    .select({
      id: products.id,
      modelKey: products.modelKey,
      storage: products.storage,
      categoryId: products.categoryId,
      resellPriceCents: products.resellPriceCents,
    })
    .from(products)
    // A phone held for review (issue 34) has no page, so no phones like it either.
    .where(and(eq(products.id, id), ne(products.status, 'held')))
    .limit(1);
  if (!phone) return undefined;

  const price = phone.resellPriceCents;
  const ids = (
    await rowsOf<{ id: string }>(db, nearestIds(phone, sameModel(phone), ANY_PRICE, SIMILAR_PHONES))
  ).map((r) => r.id);
  if (ids.length < SIMILAR_PHONES) {
    const band = await rowsOf<{ id: string }>(
      db,
      nearestIds(
        phone,
        sameBrand(phone),
        {
          low: Math.ceil(price * (1 - SIMILAR_PRICE_BAND)),
          high: Math.floor(price * (1 + SIMILAR_PRICE_BAND)),
        },
        SIMILAR_PHONES - ids.length,
      ),
    );
    ids.push(...band.map((r) => r.id));
  }
  if (ids.length === 0) return [];

  const rows = await db
    .select({ product: products, ...productSellerColumns() })
    .from(products)
    .innerJoin(users, eq(users.email, products.sellerEmail))
    .where(and(inArray(products.id, ids), eq(products.status, 'available')));
  const rank = new Map(ids.map((phoneId, i) => [phoneId, i]));
  return rows
    .sort((a, b) => (rank.get(a.product.id) ?? 0) - (rank.get(b.product.id) ?? 0))
    .map(productOf);
}
