/**
 * Sellers as anyone may see them (issue 18): a seller's profile, a phone with its seller, and a
 * seller's phones for sale. Never an e-mail address or a phone number in a profile.
 */

import { and, count, eq, lt, ne, type Placeholder, sql } from 'drizzle-orm';
import type { PaginationQuery, ProductPage } from '../../shared/api';
import { USER_STATUS_VERIFIED } from '../../shared/constants';
import type { Product, RatingSummary, SellerProfile } from '../../shared/entities';
import { withoutContacts } from '../../shared/messages';
import type { Db } from '../db/client';
import { products, users } from '../db/schema';
import { cursorOf, newestFirst, type Page, pageOf } from './page';
import { priceNoteOf } from './price-guide';
import { productOf, productSellerColumns, qualified, ratingOf, toProduct } from './products';

/** How many of the seller's phones are in `status` (apart from an outer query's `products`). */
const phonesOfSeller = (status: 'sold' | 'available') =>
  sql<number>`(select count(*)::int from ${products} as their where their.seller_email = ${qualified(users.email)} and their.status = ${status})`;

/** The columns of a seller's profile, read from `users` (joined or selected from). */
const sellerProfileColumns = () => ({
  id: users.id,
  name: users.name,
  status: users.userStatus,
  createdAt: users.createdAt,
  rating: ratingOf(users.id),
  soldCount: phonesOfSeller('sold'),
  forSaleCount: phonesOfSeller('available'),
});

type SellerRow = {
  id: string;
  name: string;
  status: string | null;
  createdAt: Date;
  rating: RatingSummary;
  soldCount: number;
  forSaleCount: number;
};

const toSellerProfile = (row: SellerRow): SellerProfile => ({
  _id: row.id,
  name: withoutContacts(row.name),
  verified: row.status === USER_STATUS_VERIFIED,
  memberSince: row.createdAt.toISOString(),
  rating: row.rating,
  soldCount: row.soldCount,
  forSaleCount: row.forSaleCount,
});

/**
 * Whose page `/seller/{id}` is: a seller account. A buyer's or an admin's account (the admin
 * role sits on buyer accounts) has no public page, and asking for one finds nothing.
 */
const isSeller = (id: string | Placeholder) => and(eq(users.id, id), eq(users.type, 'seller'));

export async function findSellerProfile(db: Db, id: string): Promise<SellerProfile | undefined> {
  const [row] = await db.select(sellerProfileColumns()).from(users).where(isSeller(id)).limit(1);
  return row && toSellerProfile(row);
}

async function sellerExists(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(users).where(isSeller(id));
  return (row?.n ?? 0) > 0;
}

/** A phone, sold or not, with its seller's live status, rating and profile. */
export async function findProductPage(db: Db, id: string): Promise<ProductPage | undefined> {
  const [row] = await db
    .select({ product: products, priceNote: priceNoteOf(), ...sellerProfileColumns() })
    .from(products)
    .innerJoin(users, eq(users.email, products.sellerEmail))
    // A phone held for review (issue 34) is no phone to anyone but its seller and the admin.
    .where(and(eq(products.id, id), ne(products.status, 'held')))
    .limit(1);
  if (!row) return undefined;
  const { product, priceNote, ...seller } = row;
  return {
    // The price's note too (issue 19), as the card shows it.
    product: toProduct(product, {
      id: seller.id,
      status: seller.status,
      rating: seller.rating,
      priceNote,
    }),
    seller: toSellerProfile(seller),
  };
}

/** The first page has no cursor: every `seq` is below this one. */
const NO_CURSOR = Number.MAX_SAFE_INTEGER;

/** Prepared once per database, as the other public lists are (repositories/products.ts). */
const prepared = new WeakMap<Db, ReturnType<typeof prepareListings>>();
const prepareListings = (db: Db) =>
  db
    .select({ product: products, ...productSellerColumns() })
    .from(users)
    .innerJoin(products, eq(products.sellerEmail, users.email))
    .where(
      and(
        isSeller(sql.placeholder('id')),
        eq(products.status, 'available'),
        lt(products.seq, sql.placeholder('cursor')),
      ),
    )
    .orderBy(newestFirst(products.seq))
    .limit(sql.placeholder('limit'))
    .prepare('list_seller_listings');

/**
 * A seller's phones for sale, newest first, a page at a time; undefined when `id` is not a
 * seller's (an empty page of a seller who has nothing for sale is an empty list).
 */
export async function listSellerListings(
  db: Db,
  id: string,
  query: PaginationQuery,
): Promise<Page<Product> | undefined> {
  let listings = prepared.get(db);
  if (!listings) {
    listings = prepareListings(db);
    prepared.set(db, listings);
  }
  const rows = await listings.execute({
    id,
    cursor: cursorOf(query) ?? NO_CURSOR,
    limit: query.limit + 1,
  });
  if (rows.length === 0 && !(await sellerExists(db, id))) return undefined;
  return pageOf(rows, query, (r) => r.product.seq, productOf);
}
