/** Product accounts: the one mapping from rows to the contract's User, and the admin lists. */
import { and, desc, eq, lt } from 'drizzle-orm';
import type { PaginationQuery } from '../../shared/api';
import type { User } from '../../shared/entities';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { cursorOf, type Page, pageOf } from './page';

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
    .orderBy(desc(users.seq))
    .limit(query.limit + 1);
  const page = pageOf(rows, query, (r) => r.seq, toUser);
  return { ...page, items: page.items.filter((u) => !adminEmails.has(u.email)) };
}
