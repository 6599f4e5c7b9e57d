/**
 * Sellers get paid (issue 30, decision 041). A completed sale's net is pending until the funds
 * hold after the handover ends; then it is available, and the timed work pays each seller's
 * available balance out once a payout period (PAYOUT_SCHEDULE) to their payout account:
 *
 *   1. `releaseDueFunds`: each sale past its funds hold, captured, not reported: pending -> available.
 *   2. `startPayouts`: for each seller due (an active account not on hold, money available, no
 *      payout yet this period) one payout is written with its `payout:<id>` entries (available ->
 *      sending), under a lock on the seller, so two servers start one payout, never two.
 *   3. `sendPayout`: the processor is asked with the payout's own key, then the answer is booked
 *      (`payout-paid` or `payout-failed`, the money back in the balance). A crash between the two
 *      leaves the payout `sending`; the next round asks again with the same key and gets the same
 *      transfer back: one transfer, one set of entries.
 *   4. `reverseRefunded`: a sale refunded after its payout has its Stripe transfer reversed (the
 *      test bank cannot: the seller's balance stays negative until their next sales cover it).
 */
import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import {
  ledgerEntries,
  ledgerTransactions,
  orders,
  payments,
  payoutAccounts,
  payoutSales,
  payouts,
} from '../db/schema';
import { ACCOUNTS } from '../ledger/accounts';
import { move, post, sellerBalances } from '../ledger/ledger';
import { postAvailable } from '../ledger/sale-money';
import { notify } from '../notify/notify';
import type { PayoutProvider } from './payout-provider';

export type PayoutWork = {
  db: Db;
  provider: PayoutProvider;
  /** PAYOUT_SCHEDULE: daily, weekly, hourly or `<n>s`. */
  schedule: string;
  log?: { warn: (details: object, message: string) => void };
};

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** The length of a payout period, and where periods start (UTC; weeks on Mondays). */
function periodOf(schedule: string): { ms: number; offsetMs: number } {
  if (schedule === 'hourly') return { ms: HOUR_MS, offsetMs: 0 };
  if (schedule === 'daily') return { ms: DAY_MS, offsetMs: 0 };
  // 1970-01-01 was a Thursday: Mondays are 4 days on.
  if (schedule === 'weekly') return { ms: 7 * DAY_MS, offsetMs: 4 * DAY_MS };
  const seconds = /^(\d+)s$/.exec(schedule);
  if (seconds) return { ms: Number(seconds[1]) * 1000, offsetMs: 0 };
  throw new Error(`PAYOUT_SCHEDULE ${schedule} is not a schedule`);
}

/** When the payout period holding `now` began. */
export function periodStart(schedule: string, now: Date): Date {
  const { ms, offsetMs } = periodOf(schedule);
  return new Date(Math.floor((now.getTime() - offsetMs) / ms) * ms + offsetMs);
}

/** When the next payout period begins. */
export const nextPeriodStart = (schedule: string, now: Date) =>
  new Date(periodStart(schedule, now).getTime() + periodOf(schedule).ms);

/** A test of the crash path: the process dies after the processor sent a payout, before it is booked. */
const dieAfterPayoutSent = process.env.PHONE_MARKET_FAULT === 'exit-after-payout-sent';

/** Moves the share of every sale past its funds hold to available (at most `limit` sales). */
export async function releaseDueFunds(db: Db, now = new Date(), limit = 50): Promise<number> {
  const due = await db
    .select({ id: orders.id })
    .from(orders)
    .where(lte(orders.fundsDueAt, now))
    .orderBy(asc(orders.fundsDueAt))
    .limit(limit);
  let released = 0;
  for (const { id } of due) {
    const done = await db.transaction(async (tx) => {
      const [order] = await tx
        .select()
        .from(orders)
        .where(eq(orders.id, id))
        .for('update', { skipLocked: true });
      if (!order?.fundsDueAt || order.fundsDueAt > now) return false;
      // The buyer's money must be captured before the seller's share can be paid out.
      const [payment] = await tx
        .select({ money: payments.money })
        .from(payments)
        .where(eq(payments.orderId, order.id));
      if (payment?.money === 'capturing') return false;
      if (order.stage === 'completed' && payment?.money === 'captured')
        await postAvailable(tx, order);
      await tx.update(orders).set({ fundsDueAt: null }).where(eq(orders.id, order.id));
      return true;
    });
    if (done) released++;
  }
  return released;
}

/** The sellers due a payout now: an active account off hold, money available, none this period. */
async function sellersDue(work: PayoutWork, now: Date, limit: number) {
  const { db, schedule } = work;
  const since = periodStart(schedule, now);
  // A seller whose refunded sale's transfer is still to be reversed waits for the reversal: a
  // payout before it would be the new sales' net less the refund, which no transfer can carry.
  const reversalDue = work.provider.reverse
    ? sql`exists (select 1 from ${payoutSales} s join ${payouts} p on p.id = s.payout_id
        join ${ledgerTransactions} r on r.order_id = s.order_id and r.kind = 'refund'
        where p.seller_id = ${payoutAccounts.sellerId} and p.status = 'paid' and s.transfer_id is not null
          and not exists (select 1 from ${ledgerTransactions} v where v.key = 'reversal:' || s.order_id))`
    : sql`false`;
  const rows = await db
    .select({
      sellerId: payoutAccounts.sellerId,
      available: sql<string>`sum(${ledgerEntries.amountCents})`,
    })
    .from(payoutAccounts)
    .innerJoin(
      ledgerEntries,
      eq(ledgerEntries.account, sql`'seller:' || ${payoutAccounts.sellerId} || ':available'`),
    )
    .where(
      and(
        eq(payoutAccounts.status, 'active'),
        sql`(${payoutAccounts.payoutsHeldUntil} is null or ${payoutAccounts.payoutsHeldUntil} <= ${now})`,
        sql`not exists (select 1 from ${payouts} where ${payouts.sellerId} = ${payoutAccounts.sellerId} and ${payouts.createdAt} >= ${since})`,
        sql`not ${reversalDue}`,
        // After a payout failed, payouts wait until the account changes (a new account, or
        // Stripe's account updated since): the same refusal again every period helps nobody.
        sql`not exists (select 1 from ${payouts} f where f.seller_id = ${payoutAccounts.sellerId}
          and f.status = 'failed' and f.destination = ${payoutAccounts.externalId}
          and f.settled_at >= ${payoutAccounts.updatedAt}
          and f.seq = (select max(l.seq) from ${payouts} l where l.seller_id = ${payoutAccounts.sellerId}))`,
      ),
    )
    .groupBy(payoutAccounts.sellerId)
    .having(sql`sum(${ledgerEntries.amountCents}) > 0`)
    .limit(limit);
  return rows.map((r) => r.sellerId);
}

/** The sales whose share is in the seller's available balance and in no payout sent or paid. */
async function salesToPay(tx: Tx, sellerId: string) {
  const rows = await tx
    .select({
      orderId: ledgerEntries.orderId,
      total: sql<string>`sum(${ledgerEntries.amountCents})`,
    })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.account, ACCOUNTS.seller(sellerId, 'available')),
        sql`${ledgerEntries.orderId} is not null`,
        sql`not exists (select 1 from ${payoutSales} join ${payouts} on ${payouts.id} = ${payoutSales.payoutId} where ${payoutSales.orderId} = ${ledgerEntries.orderId} and ${payouts.status} in ('sending', 'paid'))`,
      ),
    )
    .groupBy(ledgerEntries.orderId)
    .having(sql`sum(${ledgerEntries.amountCents}) > 0`);
  return rows.map((r) => ({ orderId: r.orderId as string, netCents: Number(r.total) }));
}

/**
 * Writes one payout for the seller if they are still due once locked: the payout, its sales, and
 * its entries (available -> sending). Answers its id, or null.
 */
async function startPayout(db: Db, schedule: string, sellerId: string, now: Date) {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`payout:${sellerId}`}, 0))`,
    );
    const [account] = await tx
      .select()
      .from(payoutAccounts)
      .where(eq(payoutAccounts.sellerId, sellerId));
    if (
      account?.status !== 'active' ||
      (account.payoutsHeldUntil && account.payoutsHeldUntil > now)
    )
      return null;
    const [earlier] = await tx
      .select({ id: payouts.id })
      .from(payouts)
      .where(
        and(eq(payouts.sellerId, sellerId), gte(payouts.createdAt, periodStart(schedule, now))),
      )
      .limit(1);
    if (earlier) return null;
    const { available } = await sellerBalances(tx, sellerId);
    if (available <= 0) return null;
    const [payout] = await tx
      .insert(payouts)
      .values({ sellerId, amountCents: available, destination: account.externalId, createdAt: now })
      .returning({ id: payouts.id });
    if (!payout) return null;
    const sales = await salesToPay(tx, sellerId);
    if (sales.length > 0)
      await tx.insert(payoutSales).values(sales.map((s) => ({ payoutId: payout.id, ...s })));
    await post(tx, {
      key: `payout:${payout.id}`,
      kind: 'payout',
      payoutId: payout.id,
      sellerId,
      legs: move(ACCOUNTS.seller(sellerId, 'available'), ACCOUNTS.sending, available),
    });
    return payout.id;
  });
}

/** Starts the payouts due this period (at most `limit`); answers their ids. */
export async function startPayouts(work: PayoutWork, now = new Date(), limit = 50) {
  const started: string[] = [];
  for (const sellerId of await sellersDue(work, now, limit)) {
    const id = await startPayout(work.db, work.schedule, sellerId, now);
    if (id) started.push(id);
  }
  return started;
}

/** The payouts still sending (a crash or an outage between the processor and the books). */
export async function sendingPayouts(db: Db, limit = 100): Promise<string[]> {
  const rows = await db
    .select({ id: payouts.id })
    .from(payouts)
    .where(eq(payouts.status, 'sending'))
    .orderBy(asc(payouts.seq))
    .limit(limit);
  return rows.map((r) => r.id);
}

const money = (cents: number) =>
  `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/**
 * Asks the processor to send a payout (its key makes a repeated ask the same payout) and books
 * the answer once: paid (sending -> the seller's paid-out account) or failed (back to available,
 * with the reason). False when the payout is not sending any more.
 */
export async function sendPayout(work: PayoutWork, payoutId: string): Promise<boolean> {
  const [payout] = await work.db.select().from(payouts).where(eq(payouts.id, payoutId));
  if (payout?.status !== 'sending') return false;
  const sales = await work.db
    .select({
      orderId: payoutSales.orderId,
      netCents: payoutSales.netCents,
      transactionId: payments.transactionId,
    })
    .from(payoutSales)
    .innerJoin(payments, eq(payments.orderId, payoutSales.orderId))
    .where(eq(payoutSales.payoutId, payout.id));
  const result = await work.provider.send({
    payoutId: payout.id,
    destination: payout.destination,
    amountCents: payout.amountCents,
    key: `payout:${payout.id}`,
    sales,
  });
  if (dieAfterPayoutSent) process.kill(process.pid, 'SIGKILL');
  return work.db.transaction(async (tx) => {
    const [moved] = await tx
      .update(payouts)
      .set({
        status: result.ok ? 'paid' : 'failed',
        providerRef: result.ok ? result.ref : null,
        failureReason: result.ok ? null : result.reason.slice(0, 500),
        settledAt: new Date(),
      })
      .where(and(eq(payouts.id, payout.id), eq(payouts.status, 'sending')))
      .returning({ id: payouts.id });
    // Another server booked the answer first.
    if (!moved) return false;
    const seller = payout.sellerId;
    await post(tx, {
      key: `${result.ok ? 'payout-paid' : 'payout-failed'}:${payout.id}`,
      kind: result.ok ? 'payout-paid' : 'payout-failed',
      payoutId: payout.id,
      sellerId: seller,
      legs: move(
        ACCOUNTS.sending,
        ACCOUNTS.seller(seller, result.ok ? 'paid' : 'available'),
        payout.amountCents,
      ),
    });
    if (result.ok)
      for (const transfer of result.transfers ?? [])
        await tx
          .update(payoutSales)
          .set({ transferId: transfer.transferId })
          .where(
            and(eq(payoutSales.payoutId, payout.id), eq(payoutSales.orderId, transfer.orderId)),
          );
    await notify(tx, [
      {
        userId: seller,
        kind: 'payout',
        text: result.ok
          ? `${money(payout.amountCents)} was paid out to your payout account.`
          : `A payout of ${money(payout.amountCents)} failed: ${result.reason}. The money is back in your balance; check your payout account.`,
        link: '/dashboard/payouts',
      },
    ]);
    return true;
  });
}

/**
 * The sales refunded after their payout whose transfer the processor can reverse and has not yet:
 * each is reversed with its own key and booked once (the seller's paid-out account back to
 * available, which the refund had taken below zero).
 */
export async function reverseRefunded(work: PayoutWork, limit = 50): Promise<number> {
  const { reverse } = work.provider;
  if (!reverse) return 0;
  const due = await work.db
    .select({
      orderId: payoutSales.orderId,
      transferId: payoutSales.transferId,
      netCents: payoutSales.netCents,
      sellerId: payouts.sellerId,
    })
    .from(payoutSales)
    .innerJoin(payouts, eq(payouts.id, payoutSales.payoutId))
    .innerJoin(
      ledgerTransactions,
      and(
        eq(ledgerTransactions.orderId, payoutSales.orderId),
        eq(ledgerTransactions.kind, 'refund'),
      ),
    )
    .where(
      and(
        eq(payouts.status, 'paid'),
        sql`${payoutSales.transferId} is not null`,
        sql`not exists (select 1 from ${ledgerTransactions} r where r.key = 'reversal:' || ${payoutSales.orderId})`,
      ),
    )
    .limit(limit);
  let reversed = 0;
  for (const sale of due) {
    try {
      await reverse.call(work.provider, {
        transferId: sale.transferId as string,
        amountCents: sale.netCents,
        key: `reversal:${sale.orderId}`,
      });
      const booked = await work.db.transaction((tx) =>
        post(tx, {
          key: `reversal:${sale.orderId}`,
          kind: 'reversal',
          orderId: sale.orderId,
          sellerId: sale.sellerId,
          legs: move(
            ACCOUNTS.seller(sale.sellerId, 'paid'),
            ACCOUNTS.seller(sale.sellerId, 'available'),
            sale.netCents,
          ),
        }),
      );
      if (booked) reversed++;
    } catch (err) {
      work.log?.warn(
        { err, orderId: sale.orderId },
        'transfer reversal failed; retried next round',
      );
    }
  }
  return reversed;
}

/** One round of the payout work: funds due, reversals, payouts due, payouts to send. */
export async function runPayoutWork(work: PayoutWork, now = new Date()) {
  let released = 0;
  for (let n = await releaseDueFunds(work.db, now); n > 0; n = await releaseDueFunds(work.db, now))
    released += n;
  // Reversals first: a seller waiting for one is not due a payout (see sellersDue).
  const reversed = await reverseRefunded(work);
  const started = (await startPayouts(work, now)).length;
  let sent = 0;
  for (const id of await sendingPayouts(work.db)) {
    try {
      if (await sendPayout(work, id)) sent++;
    } catch (err) {
      work.log?.warn({ err, payoutId: id }, 'payout not sent; asked again next round');
    }
  }
  return { released, started, sent, reversed };
}
