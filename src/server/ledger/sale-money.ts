/**
 * The ledger's side of each step of a sale (issue 30): the order process calls these inside the
 * transaction of the step, so the stage and its money are written together or not at all. Each
 * is keyed by the step and the sale: posting one twice writes nothing.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { payoutSales, payouts } from '../db/schema';
import { ACCOUNTS } from './accounts';
import { move, orderBalances, post, sellerShareOf } from './ledger';

type Sale = { id: string; sellerId: string | null; priceCents: number };

/** The seller's account a sale's share is booked to: a seller deleted since keeps theirs by id. */
const sellerOf = (sale: Sale) => {
  if (!sale.sellerId) throw new Error(`sale ${sale.id} has no seller account to book money to`);
  return sale.sellerId;
};

/** The buyer's card is authorised for the price: the money is held. */
export const postHold = (tx: Tx, sale: Sale, at?: Date) =>
  post(tx, {
    at,
    key: `hold:${sale.id}`,
    kind: 'hold',
    orderId: sale.id,
    legs: move(ACCOUNTS.cards, ACCOUNTS.holds, sale.priceCents),
  });

/** The handover: the held money is captured, the fee is the marketplace's, the rest pending. */
export function postCapture(tx: Tx, sale: Sale, feeCents: number, at?: Date) {
  const sellerId = sellerOf(sale);
  return post(tx, {
    at,
    key: `capture:${sale.id}`,
    kind: 'capture',
    orderId: sale.id,
    sellerId,
    legs: [
      { account: ACCOUNTS.holds, amountCents: -sale.priceCents },
      { account: ACCOUNTS.fees, amountCents: feeCents },
      { account: ACCOUNTS.seller(sellerId, 'pending'), amountCents: sale.priceCents - feeCents },
    ],
  });
}

/**
 * The buyer's money goes back without a handover (a cancel, an expiry): the hold is released.
 * A sale whose money was captured meanwhile (outside our steps) is refunded instead.
 */
export async function postGiveBack(tx: Tx, sale: Sale, at?: Date) {
  const balances = await orderBalances(tx, sale.id);
  const held = balances.get(ACCOUNTS.holds) ?? 0;
  if (held > 0)
    return post(tx, {
      at,
      key: `release:${sale.id}`,
      kind: 'release',
      orderId: sale.id,
      legs: move(ACCOUNTS.holds, ACCOUNTS.cards, held),
    });
  return postRefund(tx, sale, at);
}

/** The funds hold ended with no report: the seller's pending share is theirs to pay out. */
export async function postAvailable(tx: Tx, sale: Sale, at?: Date) {
  const sellerId = sellerOf(sale);
  const pending = sellerShareOf(await orderBalances(tx, sale.id)).pending ?? 0;
  if (pending <= 0) return false;
  return post(tx, {
    at,
    key: `available:${sale.id}`,
    kind: 'available',
    orderId: sale.id,
    sellerId,
    legs: move(
      ACCOUNTS.seller(sellerId, 'pending'),
      ACCOUNTS.seller(sellerId, 'available'),
      pending,
    ),
  });
}

/** The payouts, sending or paid, that carried this sale's share. */
async function paidOutIn(tx: Tx, orderId: string) {
  const rows = await tx
    .select({ id: payouts.id })
    .from(payoutSales)
    .innerJoin(payouts, eq(payouts.id, payoutSales.payoutId))
    .where(and(eq(payoutSales.orderId, orderId), inArray(payouts.status, ['sending', 'paid'])));
  return rows.length > 0;
}

/**
 * A buyer's report freezes the seller's share until the admin decides: pending, or available
 * and not yet paid out. A share paid out already has nothing to freeze (a refund takes it back).
 */
export async function postFreeze(tx: Tx, sale: Sale, at?: Date) {
  const sellerId = sellerOf(sale);
  const share = sellerShareOf(await orderBalances(tx, sale.id));
  const available = (await paidOutIn(tx, sale.id)) ? 0 : (share.available ?? 0);
  const pending = share.pending ?? 0;
  if (pending + available <= 0) return false;
  return post(tx, {
    at,
    key: `freeze:${sale.id}`,
    kind: 'freeze',
    orderId: sale.id,
    sellerId,
    legs: [
      { account: ACCOUNTS.seller(sellerId, 'pending'), amountCents: -pending },
      { account: ACCOUNTS.seller(sellerId, 'available'), amountCents: -available },
      { account: ACCOUNTS.seller(sellerId, 'frozen'), amountCents: pending + available },
    ],
  });
}

/** The admin closed the report: the frozen share becomes available. */
export async function postUnfreeze(tx: Tx, sale: Sale, at?: Date) {
  const sellerId = sellerOf(sale);
  const frozen = sellerShareOf(await orderBalances(tx, sale.id)).frozen ?? 0;
  if (frozen <= 0) return false;
  return post(tx, {
    at,
    key: `unfreeze:${sale.id}`,
    kind: 'unfreeze',
    orderId: sale.id,
    sellerId,
    legs: move(ACCOUNTS.seller(sellerId, 'frozen'), ACCOUNTS.seller(sellerId, 'available'), frozen),
  });
}

/**
 * The admin refunds the buyer the whole price: the seller's share comes back from wherever it is
 * (pending, frozen, available; once paid out, from the available balance, which goes negative
 * until a Stripe transfer reversal or the seller's next sales make it good) and the fee with it.
 */
export async function postRefund(tx: Tx, sale: Sale, at?: Date) {
  const balances = await orderBalances(tx, sale.id);
  const fee = balances.get(ACCOUNTS.fees) ?? 0;
  const share = sellerShareOf(balances);
  const legs: { account: string; amountCents: number }[] = [
    { account: ACCOUNTS.fees, amountCents: -fee },
  ];
  let back = fee;
  if (sale.sellerId)
    for (const bucket of ['pending', 'frozen', 'available'] as const) {
      const amount = share[bucket] ?? 0;
      legs.push({ account: ACCOUNTS.seller(sale.sellerId, bucket), amountCents: -amount });
      back += amount;
    }
  legs.push({ account: ACCOUNTS.cards, amountCents: back });
  return post(tx, {
    at,
    key: `refund:${sale.id}`,
    kind: 'refund',
    orderId: sale.id,
    sellerId: sale.sellerId ?? undefined,
    legs,
  });
}
