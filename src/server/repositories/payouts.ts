/**
 * What sellers and the admin read of the money (issue 30): every figure is a sum of ledger
 * entries, never a stored balance.
 */
import { and, desc, eq, gte, inArray, like, sql } from 'drizzle-orm';
import type { Finance, PayoutSummary } from '../../shared/entities';
import type { Db, Tx } from '../db/client';
import {
  ledgerEntries,
  ledgerTransactions,
  orders,
  payoutAccounts,
  payoutSales,
  payouts,
} from '../db/schema';
import { ACCOUNTS } from '../ledger/accounts';
import { balancesOf, sellerBalances } from '../ledger/ledger';
import { toPayoutAccount } from '../payouts/payout-accounts';
import { nextPeriodStart, periodStart } from '../payouts/payouts';
import { toDollars } from './money';

const DAY_MS = 24 * 60 * 60 * 1000;
const WEEKS = 12;

/** Monday 00:00 UTC of the week holding `at`. */
function weekStart(at: Date): Date {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS);
}

const isoDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * A seller's Payouts page, read in one snapshot: a payout booked between its reads (its status
 * and its ledger entries commit together) never shows as paid beside a balance from before it.
 */
export function payoutSummary(
  db: Db,
  sellerId: string,
  schedule: string,
  now = new Date(),
): Promise<PayoutSummary> {
  return db.transaction((tx) => summaryIn(tx, sellerId, schedule, now), {
    isolationLevel: 'repeatable read',
    accessMode: 'read only',
  });
}

async function summaryIn(
  db: Db | Tx,
  sellerId: string,
  schedule: string,
  now: Date,
): Promise<PayoutSummary> {
  const [balances, [account], sending, recent] = await Promise.all([
    sellerBalances(db, sellerId),
    db.select().from(payoutAccounts).where(eq(payoutAccounts.sellerId, sellerId)),
    db
      .select({ total: sql<string>`coalesce(sum(${payouts.amountCents}), 0)` })
      .from(payouts)
      .where(and(eq(payouts.sellerId, sellerId), eq(payouts.status, 'sending'))),
    db
      .select()
      .from(payouts)
      .where(eq(payouts.sellerId, sellerId))
      .orderBy(desc(payouts.seq))
      .limit(20),
  ]);
  const sales =
    recent.length === 0
      ? []
      : await db
          .select({
            payoutId: payoutSales.payoutId,
            orderId: payoutSales.orderId,
            netCents: payoutSales.netCents,
            productName: orders.productName,
          })
          .from(payoutSales)
          .innerJoin(orders, eq(orders.id, payoutSales.orderId))
          .where(
            inArray(
              payoutSales.payoutId,
              recent.map((p) => p.id),
            ),
          );
  // Net earnings by week: what each handover booked to the seller, less what refunds took back.
  const firstWeek = new Date(weekStart(now).getTime() - (WEEKS - 1) * 7 * DAY_MS);
  const earned = await db
    .select({
      week: sql<string>`to_char(date_trunc('week', ${ledgerTransactions.createdAt} at time zone 'UTC'), 'YYYY-MM-DD')`,
      total: sql<string>`sum(${ledgerEntries.amountCents})`,
    })
    .from(ledgerEntries)
    .innerJoin(ledgerTransactions, eq(ledgerTransactions.key, ledgerEntries.transactionKey))
    .where(
      and(
        like(ledgerEntries.account, `seller:${sellerId}:%`),
        inArray(ledgerTransactions.kind, ['capture', 'refund']),
        gte(ledgerTransactions.createdAt, firstWeek),
      ),
    )
    .groupBy(sql`1`);
  const byWeek = new Map(earned.map((r) => [r.week, Number(r.total)]));
  const weeks = Array.from({ length: WEEKS }, (_, i) => {
    const start = isoDay(new Date(firstWeek.getTime() + i * 7 * DAY_MS));
    return { weekStart: start, net: toDollars(Math.max(0, byWeek.get(start) ?? 0)) };
  });
  const active = account?.status === 'active';
  const heldUntil =
    account?.payoutsHeldUntil && account.payoutsHeldUntil > now ? account.payoutsHeldUntil : null;
  const paidThisPeriod = recent.some((p) => p.createdAt >= periodStart(schedule, now));
  let nextPayoutAt: Date | null = null;
  // Paused after a failure until the account changes (payouts.ts, sellersDue).
  const [latest] = recent;
  const paused =
    latest?.status === 'failed' &&
    latest.destination === account?.externalId &&
    latest.settledAt !== null &&
    latest.settledAt >= account.updatedAt;
  if (active && !paused && (balances.available > 0 || balances.pending > 0)) {
    nextPayoutAt = balances.available > 0 && !paidThisPeriod ? now : nextPeriodStart(schedule, now);
    if (heldUntil && heldUntil > nextPayoutAt) nextPayoutAt = nextPeriodStart(schedule, heldUntil);
  }
  const salesOf = (payoutId: string) =>
    sales
      .filter((s) => s.payoutId === payoutId)
      .map((s) => ({ orderId: s.orderId, productName: s.productName, net: toDollars(s.netCents) }));
  return {
    pending: toDollars(balances.pending),
    frozen: toDollars(balances.frozen),
    available: toDollars(balances.available),
    sending: toDollars(Number(sending[0]?.total ?? 0)),
    paidOut: toDollars(balances.paid),
    account: account ? toPayoutAccount(account, now) : null,
    nextPayoutAt: nextPayoutAt?.toISOString() ?? null,
    schedule,
    payouts: recent.map((p) => ({
      _id: p.id,
      amount: toDollars(p.amountCents),
      status: p.status,
      failureReason: p.failureReason,
      createdAt: p.createdAt.toISOString(),
      settledAt: p.settledAt?.toISOString() ?? null,
      sales: salesOf(p.id),
    })),
    weeks,
  };
}

/** Sums over every seller account of one bucket. */
async function sellerBucketTotal(db: Db, bucket: string) {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${ledgerEntries.amountCents}), 0)` })
    .from(ledgerEntries)
    .where(like(ledgerEntries.account, `seller:%:${bucket}`));
  return Number(row?.total ?? 0);
}

/** The admin's figures for the last `days` days (UTC, today included) and now. */
export async function finance(db: Db, days: number, now = new Date()): Promise<Finance> {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const from = new Date(today.getTime() - (days - 1) * DAY_MS);
  const dayOf = sql<string>`to_char(${ledgerTransactions.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const [byDay, failed, held, pending, frozen, available, failedNow, withoutAccount] =
    await Promise.all([
      db
        .select({
          day: dayOf,
          kind: ledgerTransactions.kind,
          account: ledgerEntries.account,
          count: sql<string>`count(distinct ${ledgerTransactions.key})`,
          total: sql<string>`sum(${ledgerEntries.amountCents})`,
        })
        .from(ledgerTransactions)
        .innerJoin(ledgerEntries, eq(ledgerEntries.transactionKey, ledgerTransactions.key))
        .where(
          and(
            gte(ledgerTransactions.createdAt, from),
            inArray(ledgerTransactions.kind, ['capture', 'refund', 'payout-paid']),
            inArray(ledgerEntries.account, [
              ACCOUNTS.holds,
              ACCOUNTS.fees,
              ACCOUNTS.cards,
              ACCOUNTS.sending,
            ]),
          ),
        )
        .groupBy(sql`1`, ledgerTransactions.kind, ledgerEntries.account),
      db
        .select({ day: dayOf, count: sql<string>`count(*)` })
        .from(ledgerTransactions)
        .where(
          and(
            gte(ledgerTransactions.createdAt, from),
            eq(ledgerTransactions.kind, 'payout-failed'),
          ),
        )
        .groupBy(sql`1`),
      balancesOf(db, [ACCOUNTS.holds, ACCOUNTS.sending]),
      sellerBucketTotal(db, 'pending'),
      sellerBucketTotal(db, 'frozen'),
      sellerBucketTotal(db, 'available'),
      db
        .select({ count: sql<string>`count(*)` })
        .from(payouts)
        .where(
          and(
            eq(payouts.status, 'failed'),
            gte(payouts.createdAt, new Date(now.getTime() - 30 * DAY_MS)),
          ),
        ),
      db
        .select({ count: sql<string>`count(distinct ${ledgerEntries.account})` })
        .from(ledgerEntries)
        .where(
          and(
            like(ledgerEntries.account, 'seller:%:available'),
            sql`not exists (select 1 from ${payoutAccounts} where 'seller:' || ${payoutAccounts.sellerId} || ':available' = ${ledgerEntries.account})`,
          ),
        ),
    ]);
  const rows = new Map<string, Finance['days'][number]>();
  for (let i = 0; i < days; i++) {
    const day = isoDay(new Date(from.getTime() + i * DAY_MS));
    rows.set(day, { day, sales: 0, volume: 0, fees: 0, refunds: 0, paidOut: 0, failedPayouts: 0 });
  }
  for (const r of byDay) {
    const row = rows.get(r.day);
    if (!row) continue;
    const total = Number(r.total);
    if (r.kind === 'capture' && r.account === ACCOUNTS.holds) {
      row.sales += Number(r.count);
      row.volume += toDollars(-total);
    }
    if (r.account === ACCOUNTS.fees) row.fees += toDollars(total);
    if (r.kind === 'refund' && r.account === ACCOUNTS.cards) row.refunds += toDollars(total);
    if (r.kind === 'payout-paid' && r.account === ACCOUNTS.sending)
      row.paidOut += toDollars(-total);
  }
  for (const r of failed) {
    const row = rows.get(r.day);
    if (row) row.failedPayouts += Number(r.count);
  }
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    from: isoDay(from),
    to: isoDay(today),
    days: [...rows.values()].map((d) => ({
      ...d,
      volume: round(d.volume),
      fees: round(d.fees),
      refunds: round(d.refunds),
      paidOut: round(d.paidOut),
    })),
    now: {
      held: toDollars(held.get(ACCOUNTS.holds) ?? 0),
      pending: toDollars(pending),
      frozen: toDollars(frozen),
      available: toDollars(available),
      sending: toDollars(held.get(ACCOUNTS.sending) ?? 0),
      failedPayouts: Number(failedNow[0]?.count ?? 0),
      sellersWithoutAccount: Number(withoutAccount[0]?.count ?? 0),
    },
  };
}

/** The days as CSV, one row a day, amounts in dollars with two decimals. */
export function financeCsv(report: Finance): string {
  const header = 'day,sales,volume,fees,refunds,paid_out,failed_payouts';
  const lines = report.days.map((d) =>
    [
      d.day,
      d.sales,
      d.volume.toFixed(2),
      d.fees.toFixed(2),
      d.refunds.toFixed(2),
      d.paidOut.toFixed(2),
      d.failedPayouts,
    ].join(','),
  );
  return `${[header, ...lines].join('\r\n')}\r\n`;
}
