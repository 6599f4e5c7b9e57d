/**
 * Where the seller's share of each sale is (issue 30), read from the ledger: the sale's own
 * entries on the seller's accounts, its refund, and the payout that carried it.
 */
import { and, inArray, like, sql } from 'drizzle-orm';
import type { SellerMoneyState } from '../../shared/order-process';
import type { Db } from '../db/client';
import { ledgerEntries, ledgerTransactions, payoutSales, payouts } from '../db/schema';
import { sellerAccountOf } from '../ledger/accounts';

export async function sellerMoneyOf(
  db: Db,
  orderIds: string[],
): Promise<Map<string, SellerMoneyState>> {
  const states = new Map<string, SellerMoneyState>();
  if (orderIds.length === 0) return states;
  const [entries, refunds, paid] = await Promise.all([
    db
      .select({
        orderId: ledgerEntries.orderId,
        account: ledgerEntries.account,
        total: sql<string>`sum(${ledgerEntries.amountCents})`,
      })
      .from(ledgerEntries)
      .where(and(inArray(ledgerEntries.orderId, orderIds), like(ledgerEntries.account, 'seller:%')))
      .groupBy(ledgerEntries.orderId, ledgerEntries.account),
    db
      .select({ orderId: ledgerTransactions.orderId })
      .from(ledgerTransactions)
      .where(
        and(
          inArray(ledgerTransactions.orderId, orderIds),
          sql`${ledgerTransactions.kind} = 'refund'`,
        ),
      ),
    db
      .select({ orderId: payoutSales.orderId, status: payouts.status })
      .from(payoutSales)
      .innerJoin(payouts, sql`${payouts.id} = ${payoutSales.payoutId}`)
      .where(
        and(inArray(payoutSales.orderId, orderIds), inArray(payouts.status, ['sending', 'paid'])),
      ),
  ]);
  const buckets = new Map<string, Record<string, number>>();
  for (const row of entries) {
    const bucket = row.orderId && sellerAccountOf(row.account)?.bucket;
    if (!row.orderId || !bucket) continue;
    const of = buckets.get(row.orderId) ?? {};
    of[bucket] = (of[bucket] ?? 0) + Number(row.total);
    buckets.set(row.orderId, of);
  }
  const payoutOf = new Map(paid.map((p) => [p.orderId, p.status]));
  for (const [orderId, of] of buckets) {
    if ((of.frozen ?? 0) > 0) states.set(orderId, 'frozen');
    else if ((of.pending ?? 0) > 0) states.set(orderId, 'pending');
    else if ((of.available ?? 0) > 0)
      states.set(
        orderId,
        payoutOf.get(orderId) === 'paid' ? 'paid' : payoutOf.has(orderId) ? 'sending' : 'available',
      );
  }
  for (const { orderId } of refunds) if (orderId) states.set(orderId, 'refunded');
  return states;
}
