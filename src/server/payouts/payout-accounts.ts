/**
 * A seller's payout account (issue 30): a test bank account with the embedded processor, a Stripe
 * Connect Express account with Stripe. Whoever holds a seller's session could send the seller's
 * money elsewhere, so setting one asks for the password again, mails the seller (always: it is
 * not a notification they can turn off), and a change holds payouts PAYOUT_ACCOUNT_HOLD_HOURS
 * (decision 041). A first account is not held: there was nowhere else for the money to go.
 */
import { eq, sql } from 'drizzle-orm';
import type { PayoutAccount } from '../../shared/entities';
import type { IdentityProvider } from '../auth/identity-provider';
import type { WindowThrottle } from '../auth/window-throttle';
import type { Db, Tx } from '../db/client';
import { payoutAccounts, users } from '../db/schema';
import { DomainError, ServiceUnavailableError } from '../domain/domain-error';
import { LimitsUnavailableError } from '../limits/limit-store';
import { letter } from '../mail/messages';
import { SITE_URL_MARK, writeMails } from '../mail/outbox';
import type { Caller } from '../plugins/auth';
import type { PayoutProvider } from './payout-provider';
import { openTestBankAccount } from './test-bank';

export type PayoutAccounts = {
  db: Db;
  provider: PayoutProvider;
  identity: Pick<IdentityProvider, 'verifyPassword'>;
  /** How long payouts wait after a change of account. */
  changeHoldMs: number;
  /** Passwords tried per account (PASSWORD_TRIES in PASSWORD_WINDOW_MS), counted before checking. */
  passwordTries: WindowThrottle;
};

/** Tries of the password per account before a wait: as many as a sign-in gets (decision 041). */
export const PASSWORD_TRIES = 5;
export const PASSWORD_WINDOW_MS = 15 * 60 * 1000;

export const WRONG_PASSWORD = 'That password is not right.';
export const NO_PASSWORD =
  'Your account signs in with Google and has no password. Set one with "Forgot password" first.';

/** Whether `err` is the identity provider's 429 (its password hashing queue is full). */
const isTooMany = (err: unknown) =>
  typeof err === 'object' &&
  err !== null &&
  ((err as { statusCode?: unknown }).statusCode === 429 ||
    (err as { status?: unknown }).status === 'TOO_MANY_REQUESTS');

/** The caller's password, asked again before their money can be sent elsewhere. */
async function confirmPassword(accounts: PayoutAccounts, caller: Caller, password: string) {
  // Counted before the check, per account: a stolen session cannot guess its way to the money,
  // and while the store that counts is down nothing is checked at all.
  const wait = await accounts.passwordTries.take(caller.id).catch((err) => {
    if (err instanceof LimitsUnavailableError)
      // Why the store is down (the database failing over, say) decides how loudly it is logged.
      throw new ServiceUnavailableError(
        'Payout accounts cannot be changed just now; try again in a minute',
        { cause: err.cause },
      );
    throw err;
  });
  if (wait > 0)
    throw DomainError.tooMany(
      `Too many tries of the password. Try again in ${Math.ceil(wait / 60)} minutes.`,
      wait,
    );
  const verdict = await accounts.identity.verifyPassword(caller.email, password).catch((err) => {
    // Password hashing is busy (a flood of sign-ups): a refusal to try again in a moment.
    if (isTooMany(err)) throw DomainError.tooMany('The service is busy. Try again in a moment.', 5);
    throw err;
  });
  if (verdict === 'no-password') throw DomainError.badRequest(NO_PASSWORD);
  if (!verdict) throw DomainError.badRequest(WRONG_PASSWORD);
}

export function toPayoutAccount(
  row: typeof payoutAccounts.$inferSelect,
  now = new Date(),
): PayoutAccount {
  return {
    kind: row.kind,
    label: row.label,
    status: row.status,
    payoutsHeldUntil:
      row.payoutsHeldUntil && row.payoutsHeldUntil > now
        ? row.payoutsHeldUntil.toISOString()
        : null,
    addedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Writes the seller's account (in place of the one before, if any) and mails them; a change
 * holds their payouts. Locked per seller, so two changes at once take turns.
 */
async function keepAccount(
  tx: Tx,
  accounts: PayoutAccounts,
  caller: Caller,
  account: {
    kind: 'bank' | 'stripe';
    externalId: string;
    label: string;
    status: 'active' | 'pending';
  },
) {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`payout:${caller.id}`}, 0))`,
  );
  const [before] = await tx
    .select()
    .from(payoutAccounts)
    .where(eq(payoutAccounts.sellerId, caller.id))
    .for('update');
  const now = new Date();
  const changed = before !== undefined && before.externalId !== account.externalId;
  const heldUntil = changed
    ? new Date(now.getTime() + accounts.changeHoldMs)
    : (before?.payoutsHeldUntil ?? null);
  const [row] = await tx
    .insert(payoutAccounts)
    .values({ sellerId: caller.id, ...account, payoutsHeldUntil: heldUntil, updatedAt: now })
    .onConflictDoUpdate({
      target: payoutAccounts.sellerId,
      set: { ...account, payoutsHeldUntil: heldUntil, updatedAt: now },
    })
    .returning();
  if (before?.externalId === account.externalId) return row as typeof payoutAccounts.$inferSelect;
  const [person] = await tx.select({ name: users.name }).from(users).where(eq(users.id, caller.id));
  const held =
    changed && heldUntil
      ? [`To protect you, payouts wait until ${heldUntil.toUTCString()} after a change of account.`]
      : [];
  await writeMails(tx, [
    letter({
      kind: 'payout-account',
      to: caller.email,
      name: person?.name ?? null,
      subject: changed ? 'Your payout account was changed' : 'A payout account was added',
      lines: [
        `Your payouts now go to ${account.label}.`,
        ...held,
        'If you did not do this, change your password at once and tell us: someone may be in your account.',
      ],
      action: { label: 'See your payouts', url: `${SITE_URL_MARK}/dashboard/payouts` },
      footer: 'You get this mail whenever the payout account of your Phone Market account changes.',
    }),
  ]);
  return row as typeof payoutAccounts.$inferSelect;
}

/** The seller sets a test bank account (the embedded processor); answers it as they see it. */
export async function setBankAccount(
  accounts: PayoutAccounts,
  caller: Caller,
  input: { routingNumber: string; accountNumber: string; password: string },
): Promise<PayoutAccount> {
  if (accounts.provider.kind !== 'embedded')
    throw DomainError.conflict('Payouts go to a Stripe account here: set one up with Stripe');
  await confirmPassword(accounts, caller, input.password);
  const row = await accounts.db.transaction(async (tx) => {
    const bank = await openTestBankAccount(tx, input.routingNumber, input.accountNumber);
    return keepAccount(tx, accounts, caller, {
      kind: 'bank',
      externalId: bank.id,
      label: bank.label,
      status: 'active',
    });
  });
  return toPayoutAccount(row);
}

/** With Stripe: the seller's Connect account (opened once) and the link to its onboarding. */
export async function startStripeOnboarding(
  accounts: PayoutAccounts,
  caller: Caller,
  password: string,
  siteUrl: string,
): Promise<{ url: string }> {
  const { onboard } = accounts.provider;
  if (!onboard) throw DomainError.conflict('Payouts go to a bank account here: add one below');
  await confirmPassword(accounts, caller, password);
  const [before] = await accounts.db
    .select()
    .from(payoutAccounts)
    .where(eq(payoutAccounts.sellerId, caller.id));
  const existing = before?.kind === 'stripe' ? before.externalId : null;
  const link = await onboard.call(accounts.provider, {
    sellerId: caller.id,
    email: caller.email,
    existing,
    returnUrl: `${siteUrl}/dashboard/payouts`,
    refreshUrl: `${siteUrl}/dashboard/payouts?refresh=1`,
  });
  if (link.accountId !== existing)
    await accounts.db.transaction((tx) =>
      keepAccount(tx, accounts, caller, {
        kind: 'stripe',
        externalId: link.accountId,
        label: `Stripe account •••• ${link.accountId.slice(-4)}`,
        // Active once Stripe says so (its account.updated webhook).
        status: 'pending',
      }),
    );
  return { url: link.url };
}
