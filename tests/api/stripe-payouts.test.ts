/**
 * Sellers paid through Stripe Connect (issue 30, decision 042), tested at Stripe's boundary:
 * Stripe's SDK talks to the local double, and webhook calls carry the double's own events, signed
 * as Stripe signs them. A seller onboards to an Express account, whose status comes from Stripe's
 * `account.updated` (asked again, never read from the event); a payout transfers each sale's share
 * from that sale's charge, once whatever is asked twice; a refusal is an answer, a reversal runs
 * once.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  orders,
  payoutAccounts,
  payoutSales,
  payouts as payouts_,
} from '../../src/server/db/schema';
import { checkLedger } from '../../src/server/ledger/check';
import { StripePaymentProvider } from '../../src/server/payments/stripe-provider';
import { type PayoutWork, runPayoutWork } from '../../src/server/payouts/payouts';
import { StripePayoutProvider } from '../../src/server/payouts/stripe-payouts';
import { DEFAULT_FEE_RULE, feeCents } from '../../src/shared/fees';
import { type Account, createAccount, createAdmin, GOOD_PASSWORD } from '../helpers/accounts';
import { buyingCalls, PRICE_CENTS } from '../helpers/buying';
import { daysToCome } from '../helpers/payout-days';
import { type StripeEvent, startStripeDouble, stripeSignature } from '../helpers/stripe-double';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_localdouble',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_localdouble',
  STRIPE_WEBHOOK_SECRET: 'whsec_localdouble',
  STRIPE_CONNECT_WEBHOOK_SECRET: 'whsec_connectdouble',
};
const RETURN = { returnUrl: 'http://localhost/payouts', refreshUrl: 'http://localhost/payouts' };

let stripe: Awaited<ReturnType<typeof startStripeDouble>>;
let t: TestApp;
let payouts: StripePayoutProvider;

beforeAll(async () => {
  stripe = await startStripeDouble(KEYS.STRIPE_SECRET_KEY, {
    webhookSecret: KEYS.STRIPE_WEBHOOK_SECRET,
  });
  // The seller's share is theirs to pay out at once after the handover, as in payouts.test.ts.
  t = await buildTestApp({ ...KEYS, STRIPE_API_URL: stripe.url, FUNDS_HOLD_HOURS: '0' });
  payouts = new StripePayoutProvider({ secretKey: KEYS.STRIPE_SECRET_KEY, apiUrl: stripe.url });
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

/** Stripe posting an event to our webhook; signed with our endpoint's secret unless told. */
function deliver(event: StripeEvent | undefined, secret = KEYS.STRIPE_WEBHOOK_SECRET) {
  if (!event) throw new Error('Stripe sent no such event');
  const { payload, signature } = stripe.signed(event, secret);
  return t.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });
}
const lastAccountEvent = (accountId: string) =>
  stripe.eventsOf(accountId, 'account.updated').at(-1);

const payoutAccountOf = async (accountId: string) =>
  (
    await t.database.db
      .select()
      .from(payoutAccounts)
      .where(eq(payoutAccounts.externalId, accountId))
  )[0];

/** A seller with an Express account at Stripe, kept as their pending payout account. */
async function onboardedSeller() {
  const seller = await createAccount(t.app, 'seller');
  const sellerId = seller.id;
  const { accountId, url } = await payouts.onboard({
    sellerId,
    email: seller.email,
    existing: null,
    ...RETURN,
  });
  await t.database.db.insert(payoutAccounts).values({
    sellerId,
    kind: 'stripe',
    externalId: accountId,
    label: 'Stripe account',
    status: 'pending',
  });
  return { seller, sellerId, accountId, url };
}

/** An active connected account and sales paid by card and captured, as a payout carries them. */
async function activeAccountWithSales(nets: number[]) {
  const { accountId } = await onboardedSeller();
  stripe.completeOnboarding(accountId);
  const sales = [];
  for (const net of nets) {
    // The buyer paid the price; the seller's net is less (the marketplace's fee stays with us).
    const transactionId = await stripe.capturedIntent(net + 500);
    sales.push({ orderId: randomUUID(), netCents: net, transactionId });
  }
  return { accountId, sales };
}

/** Days to come at noon UTC, each its own payout period. */
const nextDay = daysToCome();
const books = () =>
  checkLedger(t.database.db, {
    provider: new StripePaymentProvider({
      secretKey: KEYS.STRIPE_SECRET_KEY,
      webhookSecret: KEYS.STRIPE_WEBHOOK_SECRET,
      apiUrl: stripe.url,
    }),
  });

const chargeOf = (intentId: string) => stripe.intents.get(intentId)?.latest_charge as string;

describe('onboarding a seller to Stripe Connect', () => {
  it("answers Stripe's onboarding link for a new Express account that may receive transfers", async () => {
    const { sellerId, accountId, url } = await onboardedSeller();
    expect(url).toMatch(/^https:\/\/connect\.stripe\.com\//);
    expect(stripe.accounts.get(accountId)).toMatchObject({
      type: 'express',
      metadata: { sellerId },
      capabilities: { transfers: 'inactive' },
      details_submitted: false,
    });
    const links = stripe.requests.filter((r) => r.path === '/v1/account_links');
    expect(links.at(-1)?.form).toMatchObject({
      account: accountId,
      type: 'account_onboarding',
      return_url: RETURN.returnUrl,
      refresh_url: RETURN.refreshUrl,
    });
  });

  it('keeps an existing account and only asks for a fresh link', async () => {
    const { seller, sellerId, accountId } = await onboardedSeller();
    const before = stripe.accounts.size;
    const again = await payouts.onboard({
      sellerId,
      email: seller.email,
      existing: accountId,
      ...RETURN,
    });
    expect(again.accountId).toBe(accountId);
    expect(stripe.accounts.size).toBe(before);
  });

  it('a second press of the button within a day gets the same account, not a second one', async () => {
    const seller = await createAccount(t.app, 'seller');
    const sellerId = seller.id;
    const input = { sellerId, email: seller.email, existing: null, ...RETURN };
    const first = await payouts.onboard(input);
    const second = await payouts.onboard(input);
    expect(second.accountId).toBe(first.accountId);
    expect(second.url).not.toBe(first.url);
  });
});

describe("Stripe's account.updated", () => {
  it('makes the payout account active once Stripe says onboarding is done', async () => {
    const { accountId } = await onboardedSeller();
    stripe.completeOnboarding(accountId);
    expect((await deliver(lastAccountEvent(accountId))).statusCode).toBe(200);
    expect((await payoutAccountOf(accountId))?.status).toBe('active');
    // Again, late: nothing changes.
    expect((await deliver(lastAccountEvent(accountId))).statusCode).toBe(200);
    expect((await payoutAccountOf(accountId))?.status).toBe('active');
  });

  it("counts an event signed with the secret of the connected accounts' endpoint", async () => {
    const { accountId } = await onboardedSeller();
    stripe.completeOnboarding(accountId);
    const event = lastAccountEvent(accountId);
    expect((await deliver(event, KEYS.STRIPE_CONNECT_WEBHOOK_SECRET)).statusCode).toBe(200);
    expect((await payoutAccountOf(accountId))?.status).toBe('active');
  });

  it('makes it restricted when Stripe disables the account, and active again when it lifts that', async () => {
    const { accountId } = await onboardedSeller();
    stripe.completeOnboarding(accountId);
    stripe.restrictAccount(accountId, 'rejected.fraud');
    expect((await deliver(lastAccountEvent(accountId))).statusCode).toBe(200);
    expect((await payoutAccountOf(accountId))?.status).toBe('restricted');
    stripe.completeOnboarding(accountId);
    expect((await deliver(lastAccountEvent(accountId))).statusCode).toBe(200);
    expect((await payoutAccountOf(accountId))?.status).toBe('active');
  });

  it("follows Stripe's answer, not the event's body: an old event after a restriction changes nothing", async () => {
    const { accountId } = await onboardedSeller();
    stripe.completeOnboarding(accountId);
    // Each event carries the account as it was when Stripe sent it.
    const completed = lastAccountEvent(accountId);
    stripe.restrictAccount(accountId);
    expect((await deliver(lastAccountEvent(accountId))).statusCode).toBe(200);
    expect((await deliver(completed)).statusCode).toBe(200);
    expect((await payoutAccountOf(accountId))?.status).toBe('restricted');
  });

  it('an unsigned or forged event changes nothing', async () => {
    const { accountId } = await onboardedSeller();
    stripe.completeOnboarding(accountId);
    const event = lastAccountEvent(accountId);
    expect((await deliver(event, 'whsec_someoneelse')).statusCode).toBe(400);
    const payload = JSON.stringify(event);
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(unsigned.statusCode).toBe(400);
    // Signed, then changed on the way.
    const signature = stripeSignature(payload, KEYS.STRIPE_WEBHOOK_SECRET);
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      payload: payload.replace('"details_submitted":true', '"details_submitted":false '),
    });
    expect(changed.statusCode).toBe(400);
    expect((await payoutAccountOf(accountId))?.status).toBe('pending');
  });

  it("is acknowledged and changes nothing for an account that is no seller's", async () => {
    const stranger = (
      await payouts.onboard({
        sellerId: randomUUID(),
        email: 'someone@test.example',
        existing: null,
        ...RETURN,
      })
    ).accountId;
    stripe.completeOnboarding(stranger);
    expect((await deliver(lastAccountEvent(stranger))).statusCode).toBe(200);
    expect(await payoutAccountOf(stranger)).toBeUndefined();
  });
});

describe('a payout through Stripe Connect', () => {
  it("transfers each sale's net from that sale's charge, in the payout's transfer group", async () => {
    const { accountId, sales } = await activeAccountWithSales([10_000, 25_050]);
    const payoutId = randomUUID();
    const key = `payout-${payoutId}-1`;
    const result = await payouts.send({
      payoutId,
      destination: accountId,
      amountCents: 35_050,
      key,
      sales,
    });
    const made = stripe.transfersTo(accountId);
    expect(made).toHaveLength(2);
    expect(result).toEqual({
      ok: true,
      ref: made[0]?.id,
      transfers: sales.map((sale, i) => ({ orderId: sale.orderId, transferId: made[i]?.id })),
    });
    sales.forEach((sale, i) => {
      expect(made[i]).toMatchObject({
        amount: sale.netCents,
        currency: 'usd',
        source_transaction: chargeOf(sale.transactionId),
        transfer_group: `payout_${payoutId}`,
        metadata: { payoutId, orderId: sale.orderId },
      });
    });
    expect(
      stripe.requests.filter((r) => r.path === '/v1/transfers').map((r) => r.idempotencyKey),
    ).toEqual(expect.arrayContaining(sales.map((sale) => `${key}:${sale.orderId}`)));
  });

  it('the same key again (a retry after a crash) makes no second transfer', async () => {
    const { accountId, sales } = await activeAccountWithSales([10_000, 20_000]);
    const input = { payoutId: randomUUID(), destination: accountId, amountCents: 30_000, sales };
    const first = await payouts.send({ ...input, key: 'retry-1' });
    const second = await payouts.send({ ...input, key: 'retry-1' });
    expect(second).toEqual(first);
    expect(stripe.transfersTo(accountId)).toHaveLength(2);
  });

  it('a lost answer is thrown, and asking again with the key finds the transfer Stripe made', async () => {
    const { accountId, sales } = await activeAccountWithSales([12_000]);
    const input = { payoutId: randomUUID(), destination: accountId, amountCents: 12_000, sales };
    stripe.setLosingAnswers(true, '/v1/transfers');
    await expect(payouts.send({ ...input, key: 'lost-1' })).rejects.toThrow();
    stripe.setLosingAnswers(false);
    const made = stripe.transfersTo(accountId);
    expect(made).toHaveLength(1);
    const result = await payouts.send({ ...input, key: 'lost-1' });
    expect(result).toMatchObject({ ok: true, ref: made[0]?.id });
    expect(stripe.transfersTo(accountId)).toHaveLength(1);
  });

  it('Stripe down is thrown, not answered as a refusal', async () => {
    const { accountId, sales } = await activeAccountWithSales([12_000]);
    stripe.setFailing(true);
    try {
      await expect(
        payouts.send({
          payoutId: randomUUID(),
          destination: accountId,
          amountCents: 12_000,
          key: 'down-1',
          sales,
        }),
      ).rejects.toThrow(/not answering/);
    } finally {
      stripe.setFailing(false);
    }
    expect(stripe.transfersTo(accountId)).toHaveLength(0);
  });

  it("answers a restricted account's refusal in Stripe's words, and moves no money", async () => {
    const { accountId, sales } = await activeAccountWithSales([10_000, 20_000]);
    stripe.restrictAccount(accountId);
    const result = await payouts.send({
      payoutId: randomUUID(),
      destination: accountId,
      amountCents: 30_000,
      key: 'restricted-1',
      sales,
    });
    expect(result).toEqual({
      ok: false,
      reason: expect.stringMatching(/capabilities enabled: transfers/),
    });
    expect(stripe.transfersTo(accountId)).toHaveLength(0);
  });

  it('is all or nothing: a transfer Stripe refuses takes back those made before it, once', async () => {
    const { accountId, sales } = await activeAccountWithSales([10_000, 20_000]);
    // The second sale's charge was refunded in Stripe's dashboard: nothing left to transfer.
    await stripe.refund(sales[1]?.transactionId as string);
    const input = {
      payoutId: randomUUID(),
      destination: accountId,
      amountCents: 30_000,
      key: 'partial-1',
      sales,
    };
    const result = await payouts.send(input);
    expect(result).toEqual({ ok: false, reason: expect.stringMatching(/Insufficient funds/) });
    const [first, ...rest] = stripe.transfersTo(accountId);
    expect(rest).toEqual([]);
    expect(first).toMatchObject({ amount: 10_000, amount_reversed: 10_000, reversed: true });
    // Asked again with the key: the same answer, nothing reversed twice.
    expect(await payouts.send(input)).toEqual(result);
    expect(stripe.transfers.get(first?.id as string)?.reversals.data).toHaveLength(1);
  });

  it('keeps back what the seller owes from the last sales', async () => {
    const { accountId, sales } = await activeAccountWithSales([10_000, 3_000]);
    await payouts.send({
      payoutId: randomUUID(),
      destination: accountId,
      amountCents: 9_000,
      key: 'owed-1',
      sales,
    });
    expect(stripe.transfersTo(accountId).map((tr) => tr.amount)).toEqual([9_000]);
  });
});

describe('reversing a transfer (a refund after the payout)', () => {
  it('reverses once, however often it is asked', async () => {
    const { accountId, sales } = await activeAccountWithSales([15_000]);
    const result = await payouts.send({
      payoutId: randomUUID(),
      destination: accountId,
      amountCents: 15_000,
      key: 'to-reverse',
      sales,
    });
    const transferId = result.ok ? (result.transfers?.[0]?.transferId as string) : '';
    await payouts.reverse({ transferId, amountCents: 15_000, key: `reverse-${transferId}` });
    await payouts.reverse({ transferId, amountCents: 15_000, key: `reverse-${transferId}` });
    // Another key (another server's step): Stripe says reversed already, which is done.
    await payouts.reverse({ transferId, amountCents: 15_000, key: 'another-key' });
    const transfer = stripe.transfers.get(transferId);
    expect(transfer).toMatchObject({ reversed: true, amount_reversed: 15_000 });
    expect(transfer?.reversals.data).toHaveLength(1);
  });

  it('a reversal Stripe refuses for another reason is thrown', async () => {
    await expect(
      payouts.reverse({ transferId: 'tr_nosuchtransfer', amountCents: 100, key: 'nothing' }),
    ).rejects.toThrow(/No such transfer/);
  });
});

/** The calls of a sale through Stripe as its buyer, seller and admin make them over HTTP. */
function saleCalls(seller: Account) {
  const { phone, bookedOrder, intentFor } = buyingCalls(() => ({ t, seller }));
  const post = (url: string, by: Account, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: by.bearer, ...(payload ? { payload } : {}) });
  return {
    /** Paid by card at Stripe (recorded by Stripe's event), then handed over with the code. */
    async completedSale() {
      const buyer = await createAccount(t.app, 'user');
      const order = await bookedOrder(buyer, (await phone()).id);
      const res = await intentFor(buyer, order.id);
      expect(res.statusCode).toBe(200);
      const intentId = res.json().clientSecret.split('_secret_')[0] as string;
      expect((await stripe.confirm(intentId)).status).toBe(200);
      const held = stripe.eventsOf(intentId, 'payment_intent.amount_capturable_updated').at(-1);
      expect((await deliver(held)).statusCode).toBe(200);
      const [paid] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
      const code = paid?.handoverCode as string;
      expect((await post(`/api/orders/${order.id}/handover`, seller, { code })).statusCode).toBe(
        200,
      );
      return { buyer, orderId: order.id, intentId };
    },
    report: (orderId: string, buyer: Account) =>
      post(`/api/orders/${orderId}/report`, buyer, { reason: 'The screen is cracked' }),
    refund: (orderId: string, admin: Account) =>
      post(`/api/disputes/${orderId}`, admin, { decision: 'refund' }),
    onboard: (password = GOOD_PASSWORD) =>
      post('/api/payouts/account/stripe', seller, { password }),
    summary: async () =>
      (await t.app.inject({ url: '/api/payouts', headers: seller.bearer })).json(),
  };
}

describe('a sale paid out through Stripe Connect (the path the embedded processor runs)', () => {
  it("pays each sale's net to the seller's Express account once, and a refund after the payout reverses its transfer once", async () => {
    const seller = await createAccount(t.app, 'seller');
    const admin = await createAdmin(t.app);
    const calls = saleCalls(seller);
    const work: PayoutWork = { db: t.database.db, provider: payouts, schedule: 'daily' };

    // The seller hands over two phones sold by card before they have anywhere to be paid.
    const sales = [await calls.completedSale(), await calls.completedSale()];
    expect((await runPayoutWork(work, nextDay())).started).toBe(0);

    // Onboarding asks for the password again, answers Stripe's link, keeps a pending account.
    expect((await calls.onboard('not-the-password')).statusCode).toBe(400);
    const onboarding = await calls.onboard();
    expect(onboarding.statusCode).toBe(200);
    expect(onboarding.json().url).toMatch(/^https:\/\/connect\.stripe\.com\//);
    const [kept] = await t.database.db
      .select()
      .from(payoutAccounts)
      .where(eq(payoutAccounts.sellerId, seller.id));
    expect(kept).toMatchObject({ kind: 'stripe', status: 'pending' });
    const accountId = kept?.externalId as string;
    // Pending: nothing is paid out.
    expect((await runPayoutWork(work, nextDay())).started).toBe(0);
    expect(stripe.transfersTo(accountId)).toEqual([]);

    // The seller finishes onboarding on Stripe's pages; Stripe says so.
    stripe.completeOnboarding(accountId);
    expect((await deliver(lastAccountEvent(accountId))).statusCode).toBe(200);
    expect((await payoutAccountOf(accountId))?.status).toBe('active');

    // The funds hold (0 hours here) is over: the timed work pays out, once, whatever runs again.
    const paidOn = nextDay();
    expect(await runPayoutWork(work, paidOn)).toMatchObject({ started: 1, sent: 1 });
    expect(await runPayoutWork(work, paidOn)).toMatchObject({ started: 0, sent: 0 });
    expect((await runPayoutWork(work, nextDay())).started).toBe(0);
    const net = PRICE_CENTS - feeCents(PRICE_CENTS, DEFAULT_FEE_RULE);
    const made = stripe.transfersTo(accountId);
    expect(made).toHaveLength(2);
    for (const sale of sales) {
      const charge = chargeOf(sale.intentId);
      expect(stripe.transfersFrom(charge)).toEqual([
        expect.objectContaining({ amount: net, destination: accountId, reversed: false }),
      ]);
    }
    const summary = await calls.summary();
    expect(summary).toMatchObject({ available: 0, sending: 0, paidOut: (2 * net) / 100 });
    expect(summary.payouts).toEqual([
      expect.objectContaining({ status: 'paid', amount: (2 * net) / 100 }),
    ]);

    // The first buyer reports a problem and the admin refunds them: the transfer comes back once.
    const [first] = sales;
    expect((await calls.report(first?.orderId as string, first?.buyer as Account)).statusCode).toBe(
      200,
    );
    expect((await calls.refund(first?.orderId as string, admin)).statusCode).toBe(200);
    expect((await runPayoutWork(work, nextDay())).reversed).toBe(1);
    expect((await runPayoutWork(work, nextDay())).reversed).toBe(0);
    const [reversed] = stripe.transfersFrom(chargeOf(first?.intentId as string));
    expect(reversed).toMatchObject({ reversed: true, amount_reversed: net });
    expect(reversed?.reversals.data).toHaveLength(1);
    expect(
      stripe.transfersFrom(chargeOf(sales[1]?.intentId as string)).map((tr) => tr.amount_reversed),
    ).toEqual([0]);
    expect(await calls.summary()).toMatchObject({ available: 0, paidOut: net / 100 });
    // Every transfer at Stripe is a sale of a paid payout in our books, and the books add up.
    const carried = await t.database.db
      .select({ orderId: payoutSales.orderId, transferId: payoutSales.transferId })
      .from(payoutSales)
      .innerJoin(payouts_, eq(payouts_.id, payoutSales.payoutId))
      .where(eq(payouts_.sellerId, seller.id));
    expect(carried.map((c) => c.transferId).sort()).toEqual(made.map((tr) => tr.id).sort());
    expect(await books()).toEqual([]);
  });

  it("a payout Stripe refuses fails with Stripe's reason, the money back in the balance, and is paid once the account is active again", async () => {
    const seller = await createAccount(t.app, 'seller');
    const calls = saleCalls(seller);
    const work: PayoutWork = { db: t.database.db, provider: payouts, schedule: 'daily' };
    expect((await calls.onboard()).statusCode).toBe(200);
    const [kept] = await t.database.db
      .select()
      .from(payoutAccounts)
      .where(eq(payoutAccounts.sellerId, seller.id));
    const accountId = kept?.externalId as string;
    stripe.completeOnboarding(accountId);
    expect((await deliver(lastAccountEvent(accountId))).statusCode).toBe(200);
    const sale = await calls.completedSale();
    const net = PRICE_CENTS - feeCents(PRICE_CENTS, DEFAULT_FEE_RULE);

    // Stripe's review restricts the account; its event has not arrived when the payout runs.
    stripe.restrictAccount(accountId);
    expect((await runPayoutWork(work, nextDay())).sent).toBe(1);
    const failed = await calls.summary();
    expect(failed).toMatchObject({ available: net / 100, sending: 0, paidOut: 0 });
    expect(failed.payouts).toEqual([
      expect.objectContaining({
        status: 'failed',
        failureReason: expect.stringMatching(/capabilities enabled: transfers/),
      }),
    ]);
    expect(stripe.transfersTo(accountId)).toEqual([]);

    // The event arrives: no payout while restricted.
    expect((await deliver(lastAccountEvent(accountId))).statusCode).toBe(200);
    expect((await payoutAccountOf(accountId))?.status).toBe('restricted');
    expect((await runPayoutWork(work, nextDay())).started).toBe(0);

    // Lifted: the next payout is a new attempt (a new key) and carries the sale once.
    stripe.completeOnboarding(accountId);
    expect((await deliver(lastAccountEvent(accountId))).statusCode).toBe(200);
    expect((await runPayoutWork(work, nextDay())).sent).toBe(1);
    expect(stripe.transfersFrom(chargeOf(sale.intentId))).toEqual([
      expect.objectContaining({ amount: net, destination: accountId, amount_reversed: 0 }),
    ]);
    expect(await calls.summary()).toMatchObject({ available: 0, paidOut: net / 100 });
    expect(await books()).toEqual([]);
  });
});
