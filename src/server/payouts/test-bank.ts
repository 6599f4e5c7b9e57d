/**
 * The embedded processor's test bank (issue 30): payout accounts made of Stripe's documented test
 * routing and account numbers, which decide whether a payout arrives or fails and why, as they do
 * in Stripe's test mode. No money moves; the full account number is never kept.
 */
import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { testBankAccounts, testBankPayouts } from '../db/schema';
import { DomainError } from '../domain/domain-error';
import type { PayoutProvider, PayoutResult } from './payout-provider';

/** Stripe's test routing number (US). */
export const TEST_ROUTING_NUMBER = '110000000';

/** Stripe's test account numbers: null arrives; otherwise the failure code and its words. */
export const TEST_ACCOUNTS: Record<string, { code: string; reason: string } | null> = {
  '000123456789': null,
  '000111111116': { code: 'no_account', reason: 'The bank account does not exist' },
  '000111111113': { code: 'account_closed', reason: 'The bank account has been closed' },
  '000222222227': {
    code: 'insufficient_funds',
    reason: 'The bank account has insufficient funds to cover the payout',
  },
  '000333333335': {
    code: 'debit_not_authorized',
    reason: 'Debit transactions are not approved on the bank account',
  },
  '000444444440': {
    code: 'invalid_currency',
    reason: 'The bank account cannot accept payments in US dollars',
  },
};

export const TEST_BANK_REFUSALS = {
  routing: `routingNumber: use the test routing number ${TEST_ROUTING_NUMBER} (no money moves here)`,
  account: 'accountNumber: use one of the test account numbers; 000123456789 is paid',
};

/** Opens a test bank account; answers its id and label. Refuses numbers that are not the test ones. */
export async function openTestBankAccount(
  tx: Db | Tx,
  routingNumber: string,
  accountNumber: string,
): Promise<{ id: string; label: string }> {
  if (routingNumber !== TEST_ROUTING_NUMBER)
    throw DomainError.badRequest(TEST_BANK_REFUSALS.routing);
  if (!Object.hasOwn(TEST_ACCOUNTS, accountNumber))
    throw DomainError.badRequest(TEST_BANK_REFUSALS.account);
  const failure = TEST_ACCOUNTS[accountNumber] ?? null;
  const id = `ba_${randomBytes(12).toString('hex')}`;
  const last4 = accountNumber.slice(-4);
  await tx
    .insert(testBankAccounts)
    .values({ id, routingNumber, last4, failure: failure?.code ?? null });
  return { id, label: `Bank account •••• ${last4}` };
}

const reasonOf = (code: string) =>
  Object.values(TEST_ACCOUNTS).find((f) => f?.code === code)?.reason ?? code;

export class TestBankPayouts implements PayoutProvider {
  readonly kind = 'embedded' as const;

  constructor(private readonly db: Db) {}

  async send(input: {
    destination: string;
    key: string;
    amountCents: number;
  }): Promise<PayoutResult> {
    const [account] = await this.db
      .select()
      .from(testBankAccounts)
      .where(eq(testBankAccounts.id, input.destination));
    if (!account) return { ok: false, reason: 'The bank account does not exist' };
    if (account.failure) return { ok: false, reason: reasonOf(account.failure) };
    // The same key is the same payout: a retry finds the first and answers it.
    const ref = `po_${createHash('sha256').update(input.key).digest('hex').slice(0, 24)}`;
    await this.db
      .insert(testBankPayouts)
      .values({ key: input.key, id: ref, accountId: account.id, amountCents: input.amountCents })
      .onConflictDoNothing({ target: testBankPayouts.key });
    const [made] = await this.db
      .select()
      .from(testBankPayouts)
      .where(eq(testBankPayouts.key, input.key));
    return { ok: true, ref: made?.id ?? ref };
  }
}
