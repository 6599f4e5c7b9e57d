/**
 * Who may be one person behind two accounts (issue 29, decision 038): accounts seen from one
 * client address, and buyer accounts that pay one seller with one card. Only sales and ratings
 * between accounts not found related count as the market's.
 */
import { sql } from 'drizzle-orm';
import { type Db, rowsOf, type Tx } from '../db/client';
import { accountAddresses, orders, payments, users } from '../db/schema';

/**
 * An address shared by more accounts than this is a network's (an office, a campus, a carrier's
 * gateway), not a household's: it relates nobody. Only accounts older than ADDRESS_CROWD_DAYS
 * count towards it, so a person cannot make an address look crowded with fresh accounts signed
 * in there for the purpose (found by an attack on issue 29's fixes).
 */
export const ADDRESS_MAX_ACCOUNTS = 10;
export const ADDRESS_CROWD_DAYS = 30;

/** Notes that the account acted from the address of this fingerprint (none: nothing to note). */
export async function noteAddress(
  db: Db | Tx,
  userId: string,
  addressHash: string | null,
): Promise<void> {
  if (addressHash === null) return;
  await db
    .insert(accountAddresses)
    .values({ userId, addressHash })
    .onConflictDoUpdate({
      target: [accountAddresses.userId, accountAddresses.addressHash],
      set: { seenAt: sql`now()` },
    });
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
