/** Product accounts: the one mapping from rows to the contract's User, the admin role, and the admin lists. */
import { and, eq, gt, inArray, isNull, lt, ne, not, or, type SQL, sql } from 'drizzle-orm';
import type { PaginationQuery } from '../../shared/api';
import { USER_STATUS_VERIFIED } from '../../shared/constants';
import type { User } from '../../shared/entities';
import type { Db } from '../db/client';
import { authSessions, authUsers, orders, products, users } from '../db/schema';
import type { LoosePhotos } from '../images/loose-photos';
import { notify } from '../notify/notify';
import { banEmail } from './bans';
import { cursorOf, newestFirst, type Page, pageOf } from './page';

export const toUser = (row: typeof users.$inferSelect): User => ({
  _id: row.id,
  name: row.name,
  email: row.email,
  type: row.type,
  userStatus: row.userStatus,
});

/**
 * Whether an account is an admin: granted by the operator (`npm run admin`) or by the demo seed
 * that created it, or an `ADMIN_EMAILS` address whose owner proved it (an identity with a
 * verified e-mail, such as Google's). Signing up with an address never makes an admin.
 */
export function isAdminSql(adminEmails: ReadonlySet<string>): SQL<boolean> {
  if (adminEmails.size === 0) return sql<boolean>`${users.isAdmin}`;
  const proven = sql`exists (select 1 from ${authUsers} where ${authUsers.email} = ${users.email} and ${authUsers.emailVerified})`;
  return sql<boolean>`(${users.isAdmin} or (${inArray(users.email, [...adminEmails])} and ${proven}))`;
}

export async function isAdminEmail(
  db: Db,
  email: string,
  adminEmails: ReadonlySet<string>,
): Promise<boolean> {
  const [row] = await db
    .select({ isAdmin: isAdminSql(adminEmails) })
    .from(users)
    .where(eq(users.email, email.toLowerCase()))
    .limit(1);
  return row?.isAdmin === true;
}

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return row;
}

export async function findUserById(db: Db, id: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** Saves the record of a signed-in identity; an existing record keeps its type and name. */
export async function saveUserRecord(
  db: Db,
  record: { email: string; name: string; type: 'user' | 'seller' },
): Promise<typeof users.$inferSelect> {
  await db.insert(users).values(record).onConflictDoNothing({ target: users.email });
  const saved = await findUserByEmail(db, record.email);
  if (!saved) throw new Error(`the record of ${record.email} was not saved`);
  return saved;
}

/** Whether an identity (any sign-in method) uses the address. */
export async function identityExists(db: Db, email: string): Promise<boolean> {
  const rows = await db
    .select({ id: authUsers.id })
    .from(authUsers)
    .where(eq(authUsers.email, email.toLowerCase()))
    .limit(1);
  return rows.length > 0;
}

/**
 * The account behind an access token: the account it was issued to, while the identity session
 * it was issued for is live. Signing out, deleting or banning the account ends the session, and
 * with it every token issued for it.
 */
export async function accountOfSession(
  db: Db,
  userId: string,
  sessionId: string,
  adminEmails: ReadonlySet<string>,
) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      type: users.type,
      userStatus: users.userStatus,
      isAdmin: isAdminSql(adminEmails),
    })
    .from(users)
    .innerJoin(authUsers, eq(authUsers.email, users.email))
    .innerJoin(
      authSessions,
      and(
        eq(authSessions.userId, authUsers.id),
        eq(authSessions.id, sessionId),
        gt(authSessions.expiresAt, sql`now()`),
      ),
    )
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

/** The admins' e-mails, oldest account first. */
export async function listAdmins(db: Db, adminEmails: ReadonlySet<string>): Promise<string[]> {
  const rows = await db
    .select({ email: users.email })
    .from(users)
    .where(isAdminSql(adminEmails))
    .orderBy(users.seq);
  return rows.map((r) => r.email);
}

/** Grants or revokes the operator's admin role; answers what happened. */
export async function setAdmin(
  db: Db,
  email: string,
  admin: boolean,
): Promise<'changed' | 'unchanged' | 'no-account'> {
  const account = await findUserByEmail(db, email);
  if (!account) return 'no-account';
  if (account.isAdmin === admin) return 'unchanged';
  await db.update(users).set({ isAdmin: admin }).where(eq(users.id, account.id));
  return 'changed';
}

/** Accounts of one type, newest first; admins are left out in the query, so pages stay full. */
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
    .where(
      and(
        eq(users.type, type),
        not(isAdminSql(adminEmails)),
        cursor ? lt(users.seq, cursor) : undefined,
      ),
    )
    .orderBy(newestFirst(users.seq))
    .limit(query.limit + 1);
  return pageOf(rows, query, (r) => r.seq, toUser);
}

/**
 * Deletes an account: its identity (so its sessions and access tokens end and it cannot sign in
 * again), a seller's phones with their unpaid orders, a buyer's wish list and unpaid orders, and
 * bans the address until the admin lifts it. Paid orders and payment records are financial
 * records and stay, keyed on the account, so no later account of the address reaches them.
 */
export async function deleteAccount(
  db: Db,
  loose: Pick<LoosePhotos, 'note'>,
  user: typeof users.$inferSelect,
  reason: 'deleted' | 'banned' = 'deleted',
): Promise<number> {
  return db.transaction(async (tx) => {
    await banEmail(tx as unknown as Db, user.email, reason);
    const owned = await tx
      .select({ id: products.id, photos: products.photos })
      .from(products)
      .where(eq(products.sellerEmail, user.email));
    // Their phones' photos go a day later, unless an order still shows one.
    await loose.note(
      tx,
      owned.flatMap((p) => p.photos),
    );
    if (owned.length > 0) {
      const ids = owned.map((p) => p.id);
      await tx
        .delete(orders)
        .where(and(inArray(orders.productId, ids), eq(orders.status, 'unpaid')));
    }
    await tx.delete(orders).where(and(eq(orders.buyerId, user.id), eq(orders.status, 'unpaid')));
    await tx.delete(authUsers).where(eq(authUsers.email, user.email));
    // Products and wish-list entries go with the user record (foreign keys cascade).
    const deleted = await tx.delete(users).where(eq(users.id, user.id)).returning({ id: users.id });
    return deleted.length;
  });
}

/** Removes an identity that has no product account yet (its sessions go with it). */
export async function removeIdentity(db: Db, email: string): Promise<void> {
  await db.delete(authUsers).where(eq(authUsers.email, email.toLowerCase()));
}

/** Takes a seller's verification back (issue 19); answers 0 when they were not verified. */
export async function unverifySeller(db: Db, email: string): Promise<number> {
  const updated = await db
    .update(users)
    .set({ userStatus: null })
    .where(
      and(
        eq(users.email, email),
        eq(users.type, 'seller'),
        eq(users.userStatus, USER_STATUS_VERIFIED),
      ),
    )
    .returning({ id: users.id });
  return updated.length;
}

/** Marks a seller verified; answers how many records changed (0 when already verified). */
export async function verifySeller(db: Db, email: string): Promise<number> {
  return db.transaction(async (tx) => {
    const updated = await tx
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
    // Told once, when it happens: verifying a verified seller again changes nothing.
    await notify(
      tx,
      updated.map(({ id }) => ({
        userId: id,
        kind: 'seller-verified' as const,
        text: 'Your seller account is verified: buyers now see the verified badge on your phones.',
        link: '/dashboard/myproducts',
      })),
    );
    return updated.length;
  });
}
