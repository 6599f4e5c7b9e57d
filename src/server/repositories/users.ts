/** Product accounts: the one mapping from rows to the contract's User, and the admin lists. */
import { and, eq, inArray, isNull, lt, ne, or } from 'drizzle-orm';
import type { PaginationQuery } from '../../shared/api';
import { USER_STATUS_VERIFIED } from '../../shared/constants';
import type { User } from '../../shared/entities';
import type { Db } from '../db/client';
import { authUsers, orders, products, users } from '../db/schema';
import { cursorOf, newestFirst, type Page, pageOf } from './page';

export const toUser = (row: typeof users.$inferSelect): User => ({
  _id: row.id,
  name: row.name,
  email: row.email,
  type: row.type,
  userStatus: row.userStatus,
});

/** Accounts of one type, newest first; admins are not listed among buyers. */
export async function listUsers(
  db: Db,
  type: 'user' | 'seller',
  query: PaginationQuery,
  adminEmails: ReadonlySet<string>,
): Promise<Page<User>> {
  const cursor = cursorOf(query);
  const rows = await db
    .select()
    .from(users)
    .where(and(eq(users.type, type), cursor ? lt(users.seq, cursor) : undefined))
    .orderBy(newestFirst(users.seq))
    .limit(query.limit + 1);
  const page = pageOf(rows, query, (r) => r.seq, toUser);
  return { ...page, items: page.items.filter((u) => !adminEmails.has(u.email)) };
}

/**
 * Deletes an account: its identity (so its sessions end and it cannot sign in again), a
 * seller's phones with their unpaid orders, a buyer's wish list and unpaid orders. Paid
 * orders and payment records are financial records and stay.
 */
export async function deleteAccount(db: Db, user: typeof users.$inferSelect): Promise<number> {
  return db.transaction(async (tx) => {
    const owned = await tx
      .select({ id: products.id })
      .from(products)
      .where(eq(products.sellerEmail, user.email));
    if (owned.length > 0) {
      const ids = owned.map((p) => p.id);
      await tx
        .delete(orders)
        .where(and(inArray(orders.productId, ids), eq(orders.status, 'unpaid')));
    }
    await tx.delete(orders).where(and(eq(orders.email, user.email), eq(orders.status, 'unpaid')));
    await tx.delete(authUsers).where(eq(authUsers.email, user.email));
    // Products and wish-list entries go with the user record (foreign keys cascade).
    const deleted = await tx.delete(users).where(eq(users.id, user.id)).returning({ id: users.id });
    return deleted.length;
  });
}

/** Marks a seller verified; answers how many records changed (0 when already verified). */
export async function verifySeller(db: Db, email: string): Promise<number> {
  const updated = await db
    .update(users)
    .set({ userStatus: USER_STATUS_VERIFIED })
    .where(
      and(
        eq(users.email, email),
        eq(users.type, 'seller'),
        or(isNull(users.userStatus), ne(users.userStatus, USER_STATUS_VERIFIED)),
      ),
    )
    .returning({ id: users.id });
  return updated.length;
}
