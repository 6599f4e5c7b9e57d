/**
 * Posting to the ledger and reading balances (issue 30, decision 041). `post` writes one balanced
 * transaction under the key of the step that caused it, in the caller's database transaction:
 * a key written already writes nothing (the step was booked before), so a retried step, a
 * second server or a replayed webhook cannot book money twice. The database refuses an entry
 * that is changed or deleted, and a transaction that does not sum to zero (migration 0022).
 */
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { ledgerEntries, ledgerTransactions } from '../db/schema';
import {
  ACCOUNTS,
  type LedgerKind,
  SELLER_BUCKETS,
  type SellerBucket,
  sellerAccountOf,
} from './accounts';

export type Leg = { account: string; amountCents: number };

export type Posting = {
  /** The step's own key (`capture:<order>`): one transaction per key, ever. */
  key: string;
  kind: LedgerKind;
  legs: Leg[];
  orderId?: string;
  payoutId?: string;
  sellerId?: string;
  /** When it happened, if not now: a sale from before the ledger is booked at its own dates. */
  at?: Date;
};

/** Writes `posting` once; false when its key was posted before (nothing written now). */
export async function post(tx: Tx, posting: Posting): Promise<boolean> {
  const legs = posting.legs.filter((leg) => leg.amountCents !== 0);
  for (const leg of legs)
    if (!Number.isSafeInteger(leg.amountCents))
      throw new Error(`ledger ${posting.key}: ${leg.amountCents} is not a whole number of cents`);
  const total = legs.reduce((sum, leg) => sum + leg.amountCents, 0);
  if (total !== 0) throw new Error(`ledger ${posting.key} does not balance (off by ${total})`);
  const [inserted] = await tx
    .insert(ledgerTransactions)
    .values({
      key: posting.key,
      kind: posting.kind,
      orderId: posting.orderId ?? null,
      payoutId: posting.payoutId ?? null,
      sellerId: posting.sellerId ?? null,
      ...(posting.at ? { createdAt: posting.at } : {}),
    })
    .onConflictDoNothing({ target: ledgerTransactions.key })
    .returning({ key: ledgerTransactions.key });
  if (!inserted) return false;
  if (legs.length > 0)
    await tx.insert(ledgerEntries).values(
      legs.map((leg) => ({
        transactionKey: posting.key,
        account: leg.account,
        amountCents: leg.amountCents,
        orderId: posting.orderId ?? null,
        ...(posting.at ? { createdAt: posting.at } : {}),
      })),
    );
  return true;
}

/** Moves `amountCents` from one account to another (two legs). */
export const move = (from: string, to: string, amountCents: number): Leg[] => [
  { account: from, amountCents: -amountCents },
  { account: to, amountCents },
];

/** The balances of `accounts` (0 for one with no entries). */
export async function balancesOf(db: Db | Tx, accounts: string[]): Promise<Map<string, number>> {
  const result = new Map(accounts.map((a) => [a, 0]));
  if (accounts.length === 0) return result;
  const rows = await db
    .select({
      account: ledgerEntries.account,
      total: sql<string>`sum(${ledgerEntries.amountCents})`,
    })
    .from(ledgerEntries)
    .where(inArray(ledgerEntries.account, accounts))
    .groupBy(ledgerEntries.account);
  for (const row of rows) result.set(row.account, Number(row.total));
  return result;
}

export type SellerBalances = Record<SellerBucket, number>;

/** A seller's pending, frozen, available and paid-out money, from the entries. */
export async function sellerBalances(db: Db | Tx, sellerId: string): Promise<SellerBalances> {
  const names = SELLER_BUCKETS.map((bucket) => ACCOUNTS.seller(sellerId, bucket));
  const balances = await balancesOf(db, names);
  return Object.fromEntries(
    SELLER_BUCKETS.map((bucket) => [bucket, balances.get(ACCOUNTS.seller(sellerId, bucket)) ?? 0]),
  ) as SellerBalances;
}

/** One sale's money as its entries say: on each account, what the sale's transactions left there. */
export async function orderBalances(db: Db | Tx, orderId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({
      account: ledgerEntries.account,
      total: sql<string>`sum(${ledgerEntries.amountCents})`,
    })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.orderId, orderId))
    .groupBy(ledgerEntries.account);
  return new Map(rows.map((r) => [r.account, Number(r.total)]));
}

/** The seller's share of a sale by bucket, as the sale's own transactions left it. */
export function sellerShareOf(
  balances: Map<string, number>,
): Partial<Record<SellerBucket, number>> {
  const share: Partial<Record<SellerBucket, number>> = {};
  for (const [account, total] of balances) {
    const seller = sellerAccountOf(account);
    if (seller && total !== 0) share[seller.bucket] = (share[seller.bucket] ?? 0) + total;
  }
  return share;
}
