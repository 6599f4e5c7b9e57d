/**
 * The soak's sellers get paid (issue 30): each seller sets a payout account in the test bank
 * (`PUT /api/payouts/account`, the password asked again), most the account Stripe's test numbers
 * pay, a few one whose payouts fail; some change account mid-run, so the change holds their
 * payouts (PAYOUT_ACCOUNT_HOLD_HOURS, short on the soak's server). At the end the soak waits
 * until nothing is pending or sending, and reads every seller's figures (`GET /api/payouts`) for
 * the reconciliation to compare with the ledger.
 */
import type { Account, Http } from './soak-http';
import { PASSWORD } from './soak-http';

export const TEST_ROUTING = '110000000';
/** Stripe's test account numbers: the first is paid, the others fail (with their reason). */
export const PAYING = '000123456789';
export const FAILING = ['000111111113', '000111111116', '000222222227'] as const;

/**
 * What each seller's account does: `paying`; `failing` (every payout fails, the money stays in
 * the balance); `switch` (paying, then a new paying account mid-run: held a while);
 * `fix` (failing, then a paying account mid-run: failed payouts, a hold, then paid).
 */
export type AccountPlan = 'paying' | 'failing' | 'switch' | 'fix';

export type SellerPayouts = {
  account: Account;
  plan: AccountPlan;
  /** The number set first, and the one set mid-run (switch, fix). */
  first: string;
  next: string | null;
  /** Answered by the change mid-run: until when payouts wait. */
  heldUntil: string | null;
};

/**
 * The plan by seller index: of the two race sellers (0, 1), whose phones are always handed over,
 * the first fails, so failed payouts are sure to come, and the second is paid, so paid payouts
 * (and late reports after them) are too; of the shop sellers most are paid, one fails, two change.
 */
export function planOf(index: number, sellers: number): AccountPlan {
  if (index === 0) return 'failing';
  if (index === 1) return 'paying';
  if (sellers < 6) return 'paying';
  if (index === sellers - 1) return 'failing';
  if (index === sellers - 2) return 'fix';
  if (index === sellers - 3) return 'switch';
  return 'paying';
}

export type PayoutSummaryRead = {
  pending: number;
  frozen: number;
  available: number;
  sending: number;
  paidOut: number;
  account: { payoutsHeldUntil: string | null; label: string } | null;
  payouts: { _id: string; status: string; amount: number; failureReason: string | null }[];
};

const accountCall = (http: Http, seller: Account, accountNumber: string, operation: string) =>
  http.call(operation, '/api/payouts/account', {
    method: 'PUT',
    token: seller.token,
    json: { routingNumber: TEST_ROUTING, accountNumber, password: PASSWORD },
    accept: (s, b) => (s === 200 && (b as { kind?: string }).kind === 'bank' ? 'set' : undefined),
    // The password is hashed again: under load the server sheds it with 429 as it sheds sign-ups
    // (here without a Retry-After), and a person tries again in a moment.
    retriesWhenBusy: 12,
    retryAfterS: 5,
  });

/** Every seller sets their first payout account (a first account is not held). */
export async function setUpPayoutAccounts(
  http: Http,
  sellers: Account[],
): Promise<SellerPayouts[]> {
  const plans = sellers.map((account, i): SellerPayouts => {
    const plan = planOf(i, sellers.length);
    const failing = FAILING[i % FAILING.length] as string;
    return {
      account,
      plan,
      first: plan === 'failing' || plan === 'fix' ? failing : PAYING,
      next: plan === 'switch' || plan === 'fix' ? PAYING : null,
      heldUntil: null,
    };
  });
  for (const seller of plans) {
    const reply = await accountCall(http, seller.account, seller.first, 'seed:payout-account');
    if (!reply) throw new Error(`could not set ${seller.account.email}'s payout account`);
    const held = (reply.body as { payoutsHeldUntil: string | null }).payoutsHeldUntil;
    if (held !== null)
      http.stats.error('unexpected', 'seed:payout-account', `a first account was held (${held})`);
  }
  return plans;
}

/** The sellers who change account mid-run do: the answer must say payouts wait. */
export async function switchPayoutAccounts(http: Http, plans: SellerPayouts[]): Promise<void> {
  for (const seller of plans) {
    if (!seller.next) continue;
    const reply = await accountCall(http, seller.account, seller.next, 'payouts:change-account');
    if (!reply) continue;
    seller.heldUntil = (reply.body as { payoutsHeldUntil: string | null }).payoutsHeldUntil;
    if (!seller.heldUntil)
      http.stats.error(
        'unexpected',
        'payouts:change-account',
        `a change of account did not hold payouts (${seller.account.email})`,
      );
  }
}

/** Reads each seller's money as they see it on their Payouts page. */
export async function readSummaries(
  http: Http,
  plans: SellerPayouts[],
  operation = 'payouts:seller-reads',
): Promise<Map<string, PayoutSummaryRead>> {
  const read = new Map<string, PayoutSummaryRead>();
  for (const seller of plans) {
    const reply = await http.call(operation, '/api/payouts', {
      token: seller.account.token,
      accept: (s) => (s === 200 ? 'read' : undefined),
    });
    if (reply) read.set(seller.account.email, reply.body as PayoutSummaryRead);
  }
  return read;
}

/**
 * Waits until every seller's money has settled: nothing pending (every funds hold released),
 * nothing sending, and no account still on hold with money it could be paid; then one more payout
 * period so the money available to a paying account is paid. Answers the last figures read.
 */
export async function awaitPayoutsSettled(
  http: Http,
  plans: SellerPayouts[],
  { until, periodMs }: { until: number; periodMs: number },
): Promise<Map<string, PayoutSummaryRead>> {
  const settled = (read: Map<string, PayoutSummaryRead>) =>
    plans.every((seller) => {
      const s = read.get(seller.account.email);
      if (!s) return false;
      const held = s.account?.payoutsHeldUntil && s.available > 0;
      return s.pending === 0 && s.sending === 0 && !held;
    });
  let read = await readSummaries(http, plans, 'payouts:settle-read');
  while (!settled(read) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 1000));
    read = await readSummaries(http, plans, 'payouts:settle-read');
  }
  // One more period and its round: what became available meanwhile is paid (or failed).
  await new Promise((r) => setTimeout(r, periodMs));
  for (let i = 0; i < 10; i++) {
    read = await readSummaries(http, plans, 'payouts:settle-read');
    if ([...read.values()].every((s) => s.sending === 0)) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  return readSummaries(http, plans);
}
