/**
 * Who may be one person behind two accounts (issue 29, decision 038): accounts seen from one
 * client address, and buyer accounts that pay one seller with one card. Only sales and ratings
 * between accounts not found related count as the market's. The devices noted here only tie an
 * account to a banned one (decision 052's addendum); they relate no two accounts' sales.
 */
import { sql } from 'drizzle-orm';
import { type Db, rowsOf, type Tx } from '../db/client';
import { accountAddresses, accountDevices, orders, payments, users } from '../db/schema';

/**
 * An address shared by more accounts than this is a network's (an office, a campus, a carrier's
 * gateway), not a household's: it relates nobody. Only accounts older than ADDRESS_CROWD_DAYS
 * count towards it, so a person cannot make an address look crowded with fresh accounts signed
 * in there for the purpose (found by an attack on issue 29's fixes).
 */
export const ADDRESS_MAX_ACCOUNTS = 10;
export const ADDRESS_CROWD_DAYS = 30;

/**
 * A browser more accounts than this signed in on is a shared computer's (a shop's, a library's):
 * it ties nobody to a banned account (decision 052's addendum). Fewer than an address's: one
 * browser is one household's at most. Counted as addresses are, only accounts older than
 * ADDRESS_CROWD_DAYS, so fresh accounts opened there do not make one's own browser look shared.
 */
export const DEVICE_MAX_ACCOUNTS = 5;
/**
 * The devices an account keeps, the most recently seen: a client mints ids at will (any 32 hex
 * digits), so each one it sends must not be another row for good. A person's phone, computers and
 * cleared cookies of a year are far fewer.
 */
export const DEVICE_MAX_PER_ACCOUNT = 20;

/** Where a request was made, as keyed fingerprints (trust/devices.ts); null: nothing to note. */
export type SeenFrom = { addressHash: string | null; deviceHash: string | null };

/** Notes that the account acted from this client address and on this device. */
export async function noteSeen(
  db: Db | Tx,
  userId: string,
  { addressHash, deviceHash }: SeenFrom,
): Promise<void> {
  if (addressHash !== null)
    await db
      .insert(accountAddresses)
      .values({ userId, addressHash })
      .onConflictDoUpdate({
        target: [accountAddresses.userId, accountAddresses.addressHash],
        set: { seenAt: sql`now()` },
      });
  if (deviceHash !== null) {
    await db
      .insert(accountDevices)
      .values({ userId, deviceHash })
      .onConflictDoUpdate({
        target: [accountDevices.userId, accountDevices.deviceHash],
        set: { seenAt: sql`now()` },
      });
    await db.execute(
      sql`delete from ${accountDevices} where user_id = ${userId} and device_hash in
            (select device_hash from ${accountDevices} where user_id = ${userId}
             order by seen_at desc, device_hash offset ${DEVICE_MAX_PER_ACCOUNT})`,
    );
  }
}

/**
 * Whether the sale of `order` was between unrelated accounts, as far as we can tell: both
 * accounts known, never seen from one address (of a few accounts), and the card that paid for it
 * never paid this seller from another buyer account (one person's many buyer accounts, or the
 * seller's own card: sellers' accounts cannot buy, so their card is known only this way).
 */
export async function isArmsLength(
  tx: Db | Tx,
  order: { id: string; buyerId: string | null; sellerId: string | null },
): Promise<boolean> {
  if (order.buyerId === null || order.sellerId === null) return false;
  const [row] = await rowsOf<{ related: boolean }>(
    tx,
    sql`select
      exists (
        select 1 from ${accountAddresses} a
        join ${accountAddresses} b on b.address_hash = a.address_hash and b.user_id = ${order.sellerId}
        where a.user_id = ${order.buyerId}
          and (select count(*) from ${accountAddresses} c
              join ${users} u on u.id = c.user_id
              where c.address_hash = a.address_hash
                and u.created_at < now() - make_interval(days => ${ADDRESS_CROWD_DAYS}))
            <= ${ADDRESS_MAX_ACCOUNTS}
      ) or exists (
        select 1 from ${payments} paid
        join ${payments} other on other.card_fingerprint = paid.card_fingerprint
          and other.order_id <> paid.order_id
        join ${orders} o on o.id = other.order_id
        where paid.order_id = ${order.id}
          and o.seller_id = ${order.sellerId}
          and o.buyer_id is distinct from ${order.buyerId}
      ) as related`,
  );
  return row?.related === false;
}
