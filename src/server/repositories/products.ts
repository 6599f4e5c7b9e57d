/** Products and advertised items: queries and the one mapping from rows to the contract's shapes. */
import {
  and,
  Column,
  eq,
  getTableName,
  gte,
  is,
  lt,
  notInArray,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { PaginationQuery, productEditSchema, productInputSchema } from '../../shared/api';
import type { AdvertisedItem, OwnProduct, Product, RatingSummary } from '../../shared/entities';
import { withoutContacts } from '../../shared/messages';
import type { Db, Tx } from '../db/client';
import {
  advertisements,
  blockedImeis,
  orders,
  priceHistory,
  products,
  ratings,
  users,
} from '../db/schema';
import type { ImeiVault, SealedImei } from '../imei/imei-vault';
import { toCents, toDollars } from './money';
import { cursorOf, newestFirst, type Page, pageOf } from './page';
import { type PriceNote, priceNoteOf } from './price-guide';

export type ProductRow = typeof products.$inferSelect;
type ProductInputData = z.output<typeof productInputSchema>;

/**
 * The seller as a product's lists read them, joined live from their account, and the price's
 * note against comparable sales (repositories/price-guide.ts).
 */
export type ProductSeller = {
  id: string;
  status: string | null;
  rating: RatingSummary;
  priceNote?: PriceNote;
};

/**
 * A phone as anyone sees it: no way to reach its seller, and what the seller typed (name, model,
 * colour, place, description) through the one contact mask (issue 29).
 */
export function toProduct(row: ProductRow, seller: ProductSeller): Product {
  return {
    _id: row.id,
    modelName: withoutContacts(row.modelName),
    image: row.image,
    originalPrice: toDollars(row.originalPriceCents),
    resellPrice: toDollars(row.resellPriceCents),
    location: withoutContacts(row.location),
    description: withoutContacts(row.description),
    timeOfPost: row.createdAt.toISOString(),
    timeUsed: row.timeUsed,
    condition: row.condition as Product['condition'],
    sellerName: withoutContacts(row.sellerName),
    categoryId: row.categoryId as Product['categoryId'],
    // The seller's verification is read live, so verifying a seller badges old phones too.
    userStatus: seller.status,
    status: row.status,
    specificatons: specificationsOf(row),
    sellerRating: seller.rating,
    sellerId: seller.id,
    photos: row.photos,
    batteryHealth: row.batteryHealth,
    imeiChecked: row.imeiHash !== null,
    previousPrice:
      row.previousPriceCents !== null && row.previousPriceCents > row.resellPriceCents
        ? toDollars(row.previousPriceCents)
        : null,
    priceNote: row.status === 'available' ? (seller.priceNote ?? null) : null,
  };
}

const specificationsOf = (row: ProductRow): Product['specificatons'] => ({
  ram: row.ram as Product['specificatons']['ram'],
  storage: row.storage as Product['specificatons']['storage'],
  color: withoutContacts(row.color),
  battery: row.battery,
});

/** The columns a product's seller is read with, beside the product (users joined). */
export const productSellerColumns = () => ({
  sellerId: users.id,
  sellerStatus: users.userStatus,
  sellerRating: ratingOf(users.id),
  priceNote: priceNoteOf(),
});

type SellerColumns = {
  sellerId: string;
  sellerStatus: string | null;
  sellerRating: RatingSummary;
  priceNote: PriceNote;
};

/** A product and its seller's columns, as a query with `productSellerColumns` answers them. */
export const productOf = (r: { product: ProductRow } & SellerColumns): Product =>
  toProduct(r.product, {
    id: r.sellerId,
    status: r.sellerStatus,
    rating: r.sellerRating,
    priceNote: r.priceNote,
  });

/**
 * A column as `"table"."column"`, whatever the query around it: Drizzle leaves columns bare in
 * a select from one table, where a correlated subquery of another table would read a bare
 * `"id"` or `"email"` as its own column.
 */
export const qualified = (column: AnyPgColumn): SQL =>
  sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;

/**
 * What the other side said of the account `id`: buyers of a seller (the default), sellers of a
 * buyer (`by: 'seller'`). Only the ratings that count: the latest of each rater, none between
 * related accounts (decision 038). A correlated subquery per row, on an index of those ratings.
 */
export const ratingOf = (account: SQL | AnyPgColumn, by: 'buyer' | 'seller' = 'buyer') => {
  const id = is(account, Column) ? qualified(account) : account;
  const side = sql.raw(by === 'seller' ? "'seller'" : "'buyer'");
  const counted = sql`${ratings.rateeId} = ${id} and ${ratings.by} = ${side} and ${ratings.counts}`;
  return {
    average: sql<
      number | null
    >`(select round(avg(${ratings.stars}), 1)::float8 from ${ratings} where ${counted})`,
    count: sql<number>`(select count(*)::int from ${ratings} where ${counted})`,
  };
};

export function toAdvertisedItem(
  ad: typeof advertisements.$inferSelect,
  product: ProductRow,
): AdvertisedItem {
  return {
    _id: ad.id,
    modelName: withoutContacts(product.modelName),
    image: product.image,
    price: toDollars(product.resellPriceCents),
    feature: specificationsOf(product),
    advertiseId: product.id,
    location: withoutContacts(product.location),
    timeUsed: product.timeUsed,
    categoryId: product.categoryId as AdvertisedItem['categoryId'],
  };
}

/** The first page has no cursor: every `seq` is below this one. */
const NO_CURSOR = Number.MAX_SAFE_INTEGER;

/**
 * The public lists, built once per database and prepared: under load, rebuilding their SQL was
 * a fifth of a request's CPU, and PostgreSQL now plans each once per connection.
 */
function prepareLists(db: Db) {
  const productsWhere = (filter: SQL | undefined) =>
    db
      .select({ product: products, ...productSellerColumns() })
      .from(products)
      .innerJoin(users, eq(users.email, products.sellerEmail))
      .where(and(filter, lt(products.seq, sql.placeholder('cursor'))))
      .orderBy(newestFirst(products.seq))
      .limit(sql.placeholder('limit'));
  return {
    category: productsWhere(
      and(
        eq(products.categoryId, sql.placeholder('key')),
        // Never withdrawn (issue 19) nor held for review (issue 34).
        notInArray(products.status, ['withdrawn', 'held']),
      ),
    ).prepare('list_category_products'),
    // A seller's own list (My Products): withdrawn phones too, and whether each is advertised.
    seller: db
      .select({
        product: products,
        ...productSellerColumns(),
        advertised: sql<boolean>`exists (select 1 from ${advertisements} where ${advertisements.productId} = ${qualified(products.id)})`,
        imeiBlocked: sql<boolean>`exists (select 1 from ${blockedImeis} where ${blockedImeis.imeiHash} = ${qualified(products.imeiHash)})`,
      })
      .from(products)
      .innerJoin(users, eq(users.email, products.sellerEmail))
      .where(
        and(
          eq(products.sellerEmail, sql.placeholder('key')),
          lt(products.seq, sql.placeholder('cursor')),
        ),
      )
      .orderBy(newestFirst(products.seq))
      .limit(sql.placeholder('limit'))
      .prepare('list_seller_products'),
    advertised: db
      .select({ ad: advertisements, product: products })
      .from(advertisements)
      .innerJoin(products, eq(products.id, advertisements.productId))
      .where(
        and(eq(products.status, 'available'), lt(advertisements.seq, sql.placeholder('cursor'))),
      )
      .orderBy(newestFirst(advertisements.seq))
      .limit(sql.placeholder('limit'))
      .prepare('list_advertised'),
  };
}

const prepared = new WeakMap<Db, ReturnType<typeof prepareLists>>();
function listsOf(db: Db): ReturnType<typeof prepareLists> {
  let lists = prepared.get(db);
  if (!lists) {
    lists = prepareLists(db);
    prepared.set(db, lists);
  }
  return lists;
}

/** One row more than the page, to learn whether a next page exists. */
const pageParams = (query: PaginationQuery) => ({
  cursor: cursorOf(query) ?? NO_CURSOR,
  limit: query.limit + 1,
});

/** A brand's products (never withdrawn ones) with the seller's live verification, newest first, a page at a time. */
export async function listCategoryProducts(
  db: Db,
  categoryId: string,
  query: PaginationQuery,
): Promise<Page<Product>> {
  const rows = await listsOf(db).category.execute({ key: categoryId, ...pageParams(query) });
  return pageOf(rows, query, (r) => r.product.seq, productOf);
}

/** A seller's own products, withdrawn ones too, with the whole IMEI (opened) and whether advertised. */
export async function listOwnProducts(
  db: Db,
  vault: ImeiVault,
  email: string,
  query: PaginationQuery,
): Promise<Page<OwnProduct>> {
  const rows = await listsOf(db).seller.execute({ key: email, ...pageParams(query) });
  return pageOf(
    rows,
    query,
    (r) => r.product.seq,
    (r) => ({
      ...productOf(r),
      // Their own words as they typed them, to edit, and how buyers who paid will reach them.
      modelName: r.product.modelName,
      location: r.product.location,
      description: r.product.description,
      sellerName: r.product.sellerName,
      specificatons: { ...specificationsOf(r.product), color: r.product.color },
      sellerNumber: r.product.sellerNumber,
      email: r.product.sellerEmail,
      imei: r.product.imeiSealed === null ? null : vault.open(r.product.imeiSealed),
      advertised: r.advertised,
      imeiBlocked: r.imeiBlocked,
    }),
  );
}

/** Advertised items whose phone is still unsold, newest advertisement first. */
export async function listAdvertised(
  db: Db,
  query: PaginationQuery,
): Promise<Page<AdvertisedItem>> {
  const rows = await listsOf(db).advertised.execute(pageParams(query));
  return pageOf(
    rows,
    query,
    (r) => r.ad.seq,
    (r) => toAdvertisedItem(r.ad, r.product),
  );
}

export async function findProduct(db: Db, id: string) {
  const [row] = await db.select().from(products).where(eq(products.id, id)).limit(1);
  return row;
}

/**
 * Deletes a phone with its advertisement and wish-list entries (by cascade) and its unpaid
 * orders; paid orders keep their own record of what was bought.
 */
export async function deleteProduct(db: Db | Tx, id: string): Promise<number> {
  const remove = async (tx: Db | Tx) => {
    await tx.delete(orders).where(and(eq(orders.productId, id), eq(orders.status, 'unpaid')));
    const deleted = await tx
      .delete(products)
      .where(eq(products.id, id))
      .returning({ id: products.id });
    return deleted.length;
  };
  // Inside a caller's transaction as it is; otherwise in one of its own.
  return 'rollback' in db ? remove(db) : db.transaction(remove);
}

/** Sets a phone's photos in order; the first becomes its cover, `image`, in the same write. */
export async function updateProductPhotos(db: Db | Tx, id: string, photos: string[]) {
  const [first] = photos;
  if (first === undefined) throw new Error('a phone keeps at least its cover photo');
  await db.update(products).set({ photos, image: first }).where(eq(products.id, id));
}

/** Advertises a phone once; answers false when it already was. */
export async function advertiseProduct(db: Db, productId: string): Promise<boolean> {
  const inserted = await db
    .insert(advertisements)
    .values({ productId })
    .onConflictDoNothing({ target: advertisements.productId })
    .returning({ id: advertisements.id });
  return inserted.length > 0;
}

/**
 * Lists a phone; the seller's name and e-mail come from the caller's account, never the body.
 * Answers null when its IMEI is on another live listing (the unique index says so, whatever
 * the race).
 */
export async function insertProduct(
  db: Db | Tx,
  p: Omit<ProductInputData, 'imei'>,
  seller: { name: string; email: string },
  imei?: SealedImei,
): Promise<string | null> {
  const [row] = await db
    .insert(products)
    .values({
      categoryId: p.categoryId,
      modelName: p.modelName,
      image: p.image,
      photos: p.photos ?? [p.image],
      originalPriceCents: toCents(p.originalPrice),
      resellPriceCents: toCents(p.resellPrice),
      location: p.location,
      description: p.description,
      timeUsed: p.timeUsed,
      condition: p.condition,
      ram: p.specificatons.ram,
      storage: p.specificatons.storage,
      color: p.specificatons.color,
      battery: p.specificatons.battery,
      sellerName: seller.name,
      sellerNumber: p.sellerNumber,
      sellerEmail: seller.email,
      batteryHealth: p.batteryHealth ?? null,
      imeiHash: imei?.hash ?? null,
      imeiLast4: imei?.last4 ?? null,
      imeiSealed: imei?.sealed ?? null,
    })
    .onConflictDoNothing()
    .returning({ id: products.id, price: products.resellPriceCents });
  if (row) await db.insert(priceHistory).values({ productId: row.id, priceCents: row.price });
  return row?.id ?? null;
}

type ProductEditData = z.output<typeof productEditSchema>;

/** How far back a lower price looks for the price it is shown against. */
const REFERENCE_DAYS = 30;

/**
 * The lowest price a phone was offered at in the 30 days before now: the prices set in them, the
 * one in effect when they began, and `current` (a phone listed before prices were kept).
 */
async function lowestRecentPrice(db: Db | Tx, productId: string, current: number) {
  const since = sql`now() - make_interval(days => ${REFERENCE_DAYS})`;
  const [row] = await db
    .select({ lowest: sql<number | null>`min(${priceHistory.priceCents})` })
    .from(priceHistory)
    .where(
      and(
        eq(priceHistory.productId, productId),
        or(
          gte(priceHistory.setAt, since),
          eq(
            priceHistory.setAt,
            sql`(select max(h.set_at) from ${priceHistory} h where h.product_id = ${productId} and h.set_at < ${since})`,
          ),
        ),
      ),
    );
  return Math.min(row?.lowest ?? current, current);
}

/**
 * Writes an edit of a listing (issue 19; the caller locked the row and checked the graph): every
 * field but its IMEI, seller and photos. A lower price is shown against the lowest price of the
 * 30 days before it (as the EU's rule for price reductions has it), so a price raised for a
 * moment and lowered again shows no invented discount; a higher price clears it.
 */
export async function updateProductFields(
  db: Db | Tx,
  current: ProductRow,
  p: ProductEditData,
): Promise<void> {
  const resellPriceCents = toCents(p.resellPrice);
  let previousPriceCents = current.previousPriceCents;
  if (resellPriceCents < current.resellPriceCents) {
    const reference = await lowestRecentPrice(db, current.id, current.resellPriceCents);
    previousPriceCents = reference > resellPriceCents ? reference : null;
  } else if (resellPriceCents > current.resellPriceCents) previousPriceCents = null;
  if (resellPriceCents !== current.resellPriceCents)
    await db.insert(priceHistory).values({ productId: current.id, priceCents: resellPriceCents });
  await db
    .update(products)
    .set({
      categoryId: p.categoryId,
      modelName: p.modelName,
      originalPriceCents: toCents(p.originalPrice),
      resellPriceCents,
      previousPriceCents,
      location: p.location,
      description: p.description,
      timeUsed: p.timeUsed,
      condition: p.condition,
      ram: p.specificatons.ram,
      storage: p.specificatons.storage,
      color: p.specificatons.color,
      battery: p.specificatons.battery,
      sellerNumber: p.sellerNumber,
      batteryHealth: p.batteryHealth ?? null,
      updatedAt: new Date(),
    })
    .where(eq(products.id, current.id));
}

/** Moves a listing to `status` (withdrawn or available again; the caller locked and checked it). */
export async function setProductStatus(
  db: Db | Tx,
  id: string,
  status: ProductRow['status'],
): Promise<void> {
  await db.update(products).set({ status, updatedAt: new Date() }).where(eq(products.id, id));
}

/** Stops advertising a phone; answers how many advertisements went (0 when it was not). */
export async function unadvertiseProduct(db: Db, productId: string): Promise<number> {
  const deleted = await db
    .delete(advertisements)
    .where(eq(advertisements.productId, productId))
    .returning({ id: advertisements.id });
  return deleted.length;
}
