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
import { payoutAccounts, users } from '../../src/server/db/schema';
import { StripePayoutProvider } from '../../src/server/payouts/stripe-payouts';
import { type Account, createAccount } from '../helpers/accounts';
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
  t = await buildTestApp({ ...KEYS, STRIPE_API_URL: stripe.url });
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

const sellerIdOf = async (seller: Account) =>
  (await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, seller.email)))[0]
    ?.id as string;

/** A seller with an Express account at Stripe, kept as their pending payout account. */
async function onboardedSeller() {
  const seller = await createAccount(t.app, 'seller');
  const sellerId = await sellerIdOf(seller);
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
    const sellerId = await sellerIdOf(seller);
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
