/** Wish lists and orders: queries and the one mapping from rows to the contract's shapes. */
import { and, eq, lt, ne, sql } from 'drizzle-orm';
import type { PaginationQuery } from '../../shared/api';
import type { Order, WishListItem } from '../../shared/entities';
import { withoutContacts } from '../../shared/messages';
import type { Db, Tx } from '../db/client';
import { orders, products, wishListItems } from '../db/schema';
import { toDollars } from './money';
import { cursorOf, newestFirst, type Page, pageOf } from './page';

/**
 * A booked order whose phone is gone or sold (to another buyer: this one's would be paid):
 * it can no longer be paid for.
 */
export const isSoldElsewhere = (
  row: typeof orders.$inferSelect,
  productStatus: string | null | undefined,
) => row.stage === 'booked' && productStatus !== 'available';

export const toOrder = (
  row: typeof orders.$inferSelect,
  productStatus: string | null | undefined,
): Order => ({
  _id: row.id,
  userName: row.userName,
  // The seller typed the model's name: the buyer reads it through the contact mask.
  productName: withoutContacts(row.productName),
  price: toDollars(row.priceCents),
  email: row.email,
  location: row.location,
  number: row.number,
  productId: row.productId,
  image: row.image,
  status: row.status,
  stage: row.stage,
  soldElsewhere: isSoldElsewhere(row, productStatus),
});

/** A buyer's wish list, newest first, read live from the phones it names. */
export async function listWishList(db: Db, email: string): Promise<WishListItem[]> {
  const rows = await db
    .select({ item: wishListItems, product: products })
    .from(wishListItems)
    .innerJoin(products, eq(products.id, wishListItems.productId))
    // A phone held for review (issue 34) leaves the list until the admin clears it.
    .where(and(eq(wishListItems.email, email), ne(products.status, 'held')))
    .orderBy(newestFirst(wishListItems.seq))
    .limit(500);
  return rows.map(({ item, product }) => ({
    _id: item.id,
    productId: product.id,
    productName: withoutContacts(product.modelName),
    image: product.image,
    price: toDollars(product.resellPriceCents),
    email: item.email,
    categoryId: product.categoryId as WishListItem['categoryId'],
  }));
}

/** The orders of one account (never of an address: see the orders table). */
export async function listOrders(
  db: Db,
  buyerId: string,
  query: PaginationQuery,
): Promise<Page<Order>> {
  const cursor = cursorOf(query);
  const rows = await db
    .select({ order: orders, productStatus: products.status })
    .from(orders)
    .leftJoin(products, eq(products.id, orders.productId))
    .where(and(eq(orders.buyerId, buyerId), cursor ? lt(orders.seq, cursor) : undefined))
    .orderBy(newestFirst(orders.seq))
    .limit(query.limit + 1);
  return pageOf(
    rows,
    query,
    (r) => r.order.seq,
    (r) => toOrder(r.order, r.productStatus),
  );
}

/** Adds a phone to a buyer's wish list; false when it was there already. */
export async function addWishListItem(db: Db, email: string, productId: string): Promise<boolean> {
  const inserted = await db
    .insert(wishListItems)
    .values({ email, productId })
    .onConflictDoNothing()
    .returning({ id: wishListItems.id });
  return inserted.length > 0;
}

export async function findWishListItem(db: Db, id: string) {
  const [item] = await db.select().from(wishListItems).where(eq(wishListItems.id, id)).limit(1);
  return item;
}

export async function removeWishListItem(db: Db, id: string): Promise<number> {
  const deleted = await db
    .delete(wishListItems)
    .where(eq(wishListItems.id, id))
    .returning({ id: wishListItems.id });
  return deleted.length;
}

export type OrderRow = typeof orders.$inferSelect;

export async function findOrder(db: Db, id: string): Promise<OrderRow | undefined> {
  const [order] = await db.select().from(orders).where(eq(orders.id, id)).limit(1);
  return order;
}

/**
 * Books a phone once per account while a booking of it is live; the new order's id, or
 * undefined when this account has a booked or paid order for it already.
 */
export async function insertOrder(
  db: Db | Tx,
  values: typeof orders.$inferInsert,
): Promise<string | undefined> {
  const [inserted] = await db
    .insert(orders)
    .values(values)
    .onConflictDoNothing({
      target: [orders.buyerId, orders.productId],
      where: sql`${orders.stage} in ('booked', 'paid')`,
    })
    .returning({ id: orders.id });
  return inserted?.id;
}

/** Deletes an order while it is in `stage` (a payment landing meanwhile keeps it). */
export async function deleteOrderIn(
  db: Db | Tx,
  id: string,
  stage: OrderRow['stage'],
): Promise<number> {
  const deleted = await db
    .delete(orders)
    .where(and(eq(orders.id, id), eq(orders.stage, stage)))
    .returning({ id: orders.id });
  return deleted.length;
}
