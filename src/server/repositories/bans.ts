/**
 * Addresses that may not have an account. The admin's delete bans the address it removes (so a
 * removed seller cannot sign up again at once); the admin may also ban an address outright,
 * which removes its account if it has one, and lift a ban, after which the address starts a new
 * account with no history.
 */
import { eq, lt } from 'drizzle-orm';
import type { PaginationQuery } from '../../shared/api';
import type { BannedAddress } from '../../shared/entities';
import type { Db } from '../db/client';
import { bannedEmails } from '../db/schema';
import { cursorOf, newestFirst, type Page, pageOf } from './page';

export type BanReason = (typeof bannedEmails.$inferSelect)['reason'];

export async function isBanned(db: Db, email: string): Promise<boolean> {
  const rows = await db
    .select({ email: bannedEmails.email })
    .from(bannedEmails)
    .where(eq(bannedEmails.email, email.toLowerCase()))
    .limit(1);
  return rows.length > 0;
}

/** Bans the address; answers whether it was not banned before. */
export async function banEmail(db: Db, email: string, reason: BanReason): Promise<boolean> {
  const rows = await db
    .insert(bannedEmails)
    .values({ email: email.toLowerCase(), reason })
    .onConflictDoNothing()
    .returning({ email: bannedEmails.email });
  return rows.length > 0;
}

/** Lifts the ban; answers whether there was one. */
export async function liftBan(db: Db, email: string): Promise<boolean> {
  const rows = await db
    .delete(bannedEmails)
    .where(eq(bannedEmails.email, email.toLowerCase()))
    .returning({ email: bannedEmails.email });
  return rows.length > 0;
}

/** Banned addresses, newest first. */
export async function listBans(db: Db, query: PaginationQuery): Promise<Page<BannedAddress>> {
  const cursor = cursorOf(query);
  const rows = await db
    .select()
    .from(bannedEmails)
    .where(cursor ? lt(bannedEmails.seq, cursor) : undefined)
    .orderBy(newestFirst(bannedEmails.seq))
    .limit(query.limit + 1);
  return pageOf(
    rows,
    query,
    (r) => r.seq,
    (r) => ({ email: r.email, reason: r.reason, bannedAt: r.createdAt.toISOString() }),
  );
}
