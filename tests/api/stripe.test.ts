/**
 * Stripe as the card provider, tested at its boundary: Stripe's SDK talks to a local double that
 * answers as Stripe's API documents, and webhook calls are signed with the SDK's test helper.
 * The sale after the payment (capture, cancel, expiry, refund) is in stripe-sale.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config';
import { orders, payments, products } from '../../src/server/db/schema';
import { type Account, createAccount } from '../helpers/accounts';
import { buyingCalls, PRICE_CENTS } from '../helpers/buying';
import { fingerprint } from '../helpers/fingerprint';
import { startStripeDouble } from '../helpers/stripe-double';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_localdouble',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_localdouble',
  STRIPE_WEBHOOK_SECRET: 'whsec_localdouble',
};
const signer = new Stripe('sk_test_signer').webhooks;

let t: TestApp;
let stripe: Awaited<ReturnType<typeof startStripeDouble>>;
let seller: Account;
const { phone, bookedOrder, intentFor, recordCall } = buyingCalls(() => ({ t, seller }));

beforeAll(async () => {
  stripe = await startStripeDouble(KEYS.STRIPE_SECRET_KEY, {
    webhookSecret: KEYS.STRIPE_WEBHOOK_SECRET,
  });
  t = await buildTestApp({ ...KEYS, STRIPE_API_URL: stripe.url });
  seller = await createAccount(t.app, 'seller');
});
afterAll(async () => {
  await t.close();
  await stripe.close();
});

/** A booked order of a new buyer's, with the Stripe intent made for it. */
async function orderWithIntent() {
  const buyer = await createAccount(t.app, 'user');
  const p = await phone();
  const order = await bookedOrder(buyer, p.id);
  const res = await intentFor(buyer, order.id);
  expect(res.statusCode).toBe(200);
  const { clientSecret } = res.json();
  const intentId = clientSecret.split('_secret_')[0] as string;
  return { buyer, product: p, order, intentId };
}

const webhook = (payload: string, signature?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(signature ? { 'stripe-signature': signature } : {}),
    },
    payload,
  });

/** Stripe's event for an authorised intent (the money held), as the double sent it. */
const heldEvent = (intentId: string) => {
  const event = stripe.eventsOf(intentId, 'payment_intent.amount_capturable_updated').at(-1);
  if (!event) throw new Error(`no event of ${intentId} being authorised`);
  return JSON.stringify(event);
};

const signed = (payload: string, secret = KEYS.STRIPE_WEBHOOK_SECRET) =>
  signer.generateTestHeaderString({ payload, secret });

const orderRow = async (id: string) =>
  (await t.database.db.select().from(orders).where(eq(orders.id, id)))[0];

describe('Stripe as the card provider', () => {
  it('tells the client to use Stripe Elements with the publishable key, and allows Stripe in the CSP', async () => {
    const res = await t.app.inject({ url: '/api/config' });
    expect(res.json().payments).toEqual({
      provider: 'stripe',
      publishableKey: KEYS.STRIPE_PUBLISHABLE_KEY,
    });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self' https:\/\/js\.stripe\.com/);
    expect(csp).toMatch(/frame-src [^;]*https:\/\/js\.stripe\.com/);
    expect(csp).toMatch(/connect-src [^;]*https:\/\/api\.stripe\.com/);
  });

  it('has no embedded card confirmation: card numbers go to Stripe, never to us', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test-payments/confirm',
      payload: { clientSecret: 'pi_x_secret_y', card: {}, billingDetails: {} },
    });
    expect(res.statusCode).toBe(404);
  });

  it("creates the PaymentIntent for the order's price in dollars' cents, to be captured later, with the order in its metadata", async () => {
    const { order, intentId, buyer } = await orderWithIntent();
    expect(stripe.intents.get(intentId)).toMatchObject({
      amount: PRICE_CENTS,
      currency: 'usd',
      capture_method: 'manual',
      metadata: { orderId: order.id },
      receipt_email: buyer.email,
    });
  });

  it('refuses another price without asking Stripe for anything', async () => {
    const buyer = await createAccount(t.app, 'user');
    const order = await bookedOrder(buyer, (await phone()).id);
    const before = stripe.requests.length;
    const res = await intentFor(buyer, order.id, 1);
    expect(res.statusCode).toBe(400);
    expect(stripe.requests.length).toBe(before);
  });

  it('records a confirmed payment once as money held, marks the order paid and the phone sold', async () => {
    const { buyer, order, intentId, product } = await orderWithIntent();
    const early = await recordCall(buyer, intentId, order.id);
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toMatch(/not succeeded/);

    expect((await stripe.confirm(intentId)).status).toBe(200);
    const first = await recordCall(buyer, intentId, order.id);
    const again = await recordCall(buyer, intentId, order.id);
    expect(first.statusCode).toBe(200);
    expect(again.json().insertedId).toBe(first.json().insertedId);
    expect((await orderRow(order.id))?.status).toBe('paid');
    const [sold] = await t.database.db.select().from(products).where(eq(products.id, product.id));
    expect(sold?.status).toBe('sold');
    const recorded = await t.database.db
      .select()
      .from(payments)
      .where(eq(payments.transactionId, intentId));
    expect(recorded.map((r) => [r.priceCents, r.money])).toEqual([[PRICE_CENTS, 'held']]);
    expect(stripe.intents.get(intentId)?.status).toBe('requires_capture');
  });

  it("lets nobody record another buyer's payment, nor one intent for another order", async () => {
    const a = await orderWithIntent();
    const b = await orderWithIntent();
    await stripe.confirm(a.intentId);
    expect((await recordCall(b.buyer, a.intentId, a.order.id)).statusCode).toBe(403);
    expect((await recordCall(b.buyer, a.intentId, b.order.id)).statusCode).toBe(400);
    expect((await recordCall(a.buyer, 'pi_doesnotexist', a.order.id)).statusCode).toBe(400);
    expect((await recordCall(a.buyer, '../v1/refunds', a.order.id)).statusCode).toBe(400);
  });

  it('records nothing for a declined card', async () => {
    const { buyer, order, intentId } = await orderWithIntent();
    const declined = await stripe.confirm(intentId, 'pm_card_chargeDeclined');
    expect(declined.status).toBe(402);
    expect((await recordCall(buyer, intentId, order.id)).statusCode).toBe(400);
    expect((await orderRow(order.id))?.status).toBe('unpaid');
  });

  it('answers 503 with a message when Stripe is down, and changes nothing', async () => {
    const buyer = await createAccount(t.app, 'user');
    const order = await bookedOrder(buyer, (await phone()).id);
    stripe.setFailing(true);
    try {
      const res = await intentFor(buyer, order.id);
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toMatch(/card service/);
    } finally {
      stripe.setFailing(false);
    }
    expect((await orderRow(order.id))?.status).toBe('unpaid');
  });
});

describe("Stripe's webhook", () => {
  it('records the payment when the browser closed before its record call, once however often Stripe retries', async () => {
    const { order, intentId } = await orderWithIntent();
    await stripe.confirm(intentId);
    const payload = heldEvent(intentId);
    for (let i = 0; i < 3; i++) {
      const res = await webhook(payload, signed(payload));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ received: true });
    }
    expect((await orderRow(order.id))?.status).toBe('paid');
    const recorded = await t.database.db
      .select()
      .from(payments)
      .where(eq(payments.transactionId, intentId));
    expect(recorded.map((r) => r.money)).toEqual(['held']);
  });

  it.each([
    ['no signature', () => undefined],
    ['a signature made with another secret', (p: string) => signed(p, 'whsec_someoneelse')],
    ['a signature of another payload', (p: string) => signed(`${p} `)],
    ['a malformed signature', () => 't=1,v1=deadbeef'],
  ])('refuses a call with %s and records nothing', async (_, signatureOf) => {
    const { order, intentId } = await orderWithIntent();
    await stripe.confirm(intentId);
    const payload = heldEvent(intentId);
    const res = await webhook(payload, signatureOf(payload));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/stripe-signature/);
    expect((await orderRow(order.id))?.status).toBe('unpaid');
  });

  it('acknowledges events it does not act on, and intents that are not ours', async () => {
    const other = JSON.stringify({
      id: 'evt_other',
      object: 'event',
      type: 'customer.created',
      data: { object: { id: 'cus_1' } },
    });
    expect((await webhook(other, signed(other))).statusCode).toBe(200);
    for (const [type, object] of [
      ['payment_intent.succeeded', { object: 'payment_intent', id: 'pi_notours' }],
      ['payment_intent.amount_capturable_updated', { object: 'payment_intent', id: 'pi_notours' }],
      ['payment_intent.canceled', { object: 'payment_intent', id: 'pi_notours' }],
      ['charge.refunded', { object: 'charge', id: 'ch_notours', payment_intent: 'pi_notours' }],
      ['charge.refunded', { object: 'charge', id: 'ch_nointent', payment_intent: null }],
      ['payment_intent.canceled', { object: 'payment_intent', id: '../v1/refunds' }],
    ] as const) {
      const foreign = JSON.stringify({
        id: 'evt_foreign',
        object: 'event',
        type,
        data: { object },
      });
      expect((await webhook(foreign, signed(foreign))).statusCode).toBe(200);
    }
  });

  it("releases the second buyer's hold when the webhook and a record call race for one phone", async () => {
    const p = await phone();
    const buyers = await Promise.all([createAccount(t.app, 'user'), createAccount(t.app, 'user')]);
    const [first, second] = await Promise.all(buyers.map((b) => bookedOrder(b, p.id)));
    const ids = await Promise.all(
      buyers.map(async (b, i) => {
        const order = [first, second][i] as typeof orders.$inferSelect;
        const { clientSecret } = (await intentFor(b, order.id)).json();
        const id = clientSecret.split('_secret_')[0] as string;
        await stripe.confirm(id);
        return id;
      }),
    );
    const payload = heldEvent(ids[1] as string);
    const [viaClient, viaWebhook] = await Promise.all([
      recordCall(buyers[0] as Account, ids[0] as string, first?.id as string),
      webhook(payload, signed(payload)),
    ]);
    expect(viaWebhook.statusCode).toBe(200);
    const kept = await t.database.db.select().from(payments).where(eq(payments.productId, p.id));
    expect(kept).toHaveLength(1);
    const winner = kept[0]?.transactionId;
    const loser = ids.find((id) => id !== winner) as string;
    if (winner === ids[0]) expect(viaClient.statusCode).toBe(200);
    else expect(viaClient.statusCode).toBe(409);
    expect(stripe.intents.get(loser)?.status).toBe('canceled');
    expect(stripe.ran('cancel', loser)).toBe(1);
    const cancelCall = stripe.requests.find(
      (r) => r.path === `/v1/payment_intents/${loser}/cancel`,
    );
    expect(cancelCall?.idempotencyKey).toBe(`cancel-${loser}`);
    expect(stripe.intents.get(winner as string)?.status).toBe('requires_capture');
  });
});

/** An intent a signed event says succeeded but Stripe, asked, does not vouch for. */
type Untrusted = {
  intentId: string;
  /** What a lying event's object claims: a success for this order at its price. */
  claimedOrderId: string;
  /** Orders that must stay unpaid, their phones for sale. */
  untouched: { order: typeof orders.$inferSelect; productId: string }[];
  /** The record call that would take the intent for an order of the caller's own. */
  recorder: { buyer: Account; orderId: string };
};

const untrusted: [string, () => Promise<Untrusted>][] = [
  [
    'is still requires_payment_method at Stripe',
    async () => {
      const { buyer, order, product, intentId } = await orderWithIntent();
      return {
        intentId,
        claimedOrderId: order.id,
        untouched: [{ order, productId: product.id }],
        recorder: { buyer, orderId: order.id },
      };
    },
  ],
  [
    "was charged another amount than the order's price",
    async () => {
      const { buyer, order, product, intentId } = await orderWithIntent();
      await stripe.update(intentId, { amount: '100' });
      expect((await stripe.confirm(intentId)).status).toBe(200);
      return {
        intentId,
        claimedOrderId: order.id,
        untouched: [{ order, productId: product.id }],
        recorder: { buyer, orderId: order.id },
      };
    },
  ],
  [
    "names in its metadata another buyer's order",
    async () => {
      const a = await orderWithIntent();
      const b = await orderWithIntent();
      await stripe.update(a.intentId, { 'metadata[orderId]': b.order.id });
      expect((await stripe.confirm(a.intentId)).status).toBe(200);
      return {
        intentId: a.intentId,
        claimedOrderId: b.order.id,
        untouched: [
          { order: a.order, productId: a.product.id },
          { order: b.order, productId: b.product.id },
        ],
        // B's own order, which the metadata now names: B never paid for it.
        recorder: { buyer: b.buyer, orderId: b.order.id },
      };
    },
  ],
  [
    "was cancelled in Stripe's dashboard before anything recorded it",
    async () => {
      const { buyer, order, product, intentId } = await orderWithIntent();
      expect((await stripe.confirm(intentId)).status).toBe(200);
      expect((await stripe.cancel(intentId)).status).toBe(200);
      return {
        intentId,
        claimedOrderId: order.id,
        untouched: [{ order, productId: product.id }],
        recorder: { buyer, orderId: order.id },
      };
    },
  ],
  [
    "was captured and refunded in Stripe's dashboard before anything recorded it",
    async () => {
      const { buyer, order, product, intentId } = await orderWithIntent();
      expect((await stripe.confirm(intentId)).status).toBe(200);
      expect((await stripe.capture(intentId)).status).toBe(200);
      await stripe.refund(intentId);
      return {
        intentId,
        claimedOrderId: order.id,
        untouched: [{ order, productId: product.id }],
        recorder: { buyer, orderId: order.id },
      };
    },
  ],
  [
    'is unknown to Stripe',
    async () => {
      const { buyer, order, product } = await orderWithIntent();
      return {
        intentId: `pi_${randomBytes(12).toString('hex')}`,
        claimedOrderId: order.id,
        untouched: [{ order, productId: product.id }],
        recorder: { buyer, orderId: order.id },
      };
    },
  ],
];

/** What is there before a call: every table's digest, and how many calls Stripe has had. */
const stateNow = async () => ({
  tables: await fingerprint(t.database.db),
  stripeCalls: stripe.requests.length,
});

/** Proves an untrusted intent changed nothing since `before`: no table, order, phone or refund. */
async function expectNothingChanged(
  before: Awaited<ReturnType<typeof stateNow>>,
  { intentId, untouched }: Untrusted,
) {
  expect(await fingerprint(t.database.db)).toEqual(before.tables);
  for (const { order, productId } of untouched) {
    expect((await orderRow(order.id))?.status).toBe('unpaid');
    const [p] = await t.database.db.select().from(products).where(eq(products.id, productId));
    expect(p?.status).toBe('available');
  }
  expect(
    await t.database.db.select().from(payments).where(eq(payments.transactionId, intentId)),
  ).toEqual([]);
  const since = stripe.requests.slice(before.stripeCalls);
  // No money moved: no capture, cancel or refund was asked for.
  expect(since.filter((r) => r.method === 'POST')).toEqual([]);
  // Only Stripe's own answer counted: the intent was asked for by its id.
  expect(
    since.some((r) => r.method === 'GET' && r.path === `/v1/payment_intents/${intentId}`),
  ).toBe(true);
}

describe('an intent Stripe does not vouch for', () => {
  it.each(untrusted)(
    'a signed event that says the money of an intent that %s is held or captured is acknowledged and changes nothing',
    async (_, make) => {
      const made = await make();
      const before = await stateNow();
      for (const [type, status] of [
        ['payment_intent.amount_capturable_updated', 'requires_capture'],
        ['payment_intent.succeeded', 'succeeded'],
      ]) {
        // The event's own object claims all is well: only Stripe's answer to our retrieve counts.
        const payload = JSON.stringify({
          id: `evt_${made.intentId}`,
          object: 'event',
          type,
          data: {
            object: {
              id: made.intentId,
              object: 'payment_intent',
              status,
              amount: PRICE_CENTS,
              amount_capturable: status === 'requires_capture' ? PRICE_CENTS : 0,
              currency: 'usd',
              metadata: { orderId: made.claimedOrderId },
            },
          },
        });
        const res = await webhook(payload, signed(payload));
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ received: true });
      }
      await expectNothingChanged(before, made);
    },
  );

  it.each(untrusted)(
    'POST /payment of an intent that %s is refused by the same rule and changes nothing',
    async (_, make) => {
      const made = await make();
      const before = await stateNow();
      const res = await recordCall(made.recorder.buyer, made.intentId, made.recorder.orderId);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^transactionId: /);
      await expectNothingChanged(before, made);
    },
  );
});

describe('Stripe settings', () => {
  it('refuses to start with half a Stripe setup, naming what is missing', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: KEYS.STRIPE_SECRET_KEY })).toThrow(ConfigError);
    expect(() => loadConfig({ STRIPE_SECRET_KEY: KEYS.STRIPE_SECRET_KEY })).toThrow(
      /STRIPE_PUBLISHABLE_KEY: is required[\s\S]*STRIPE_WEBHOOK_SECRET: is required/,
    );
  });

  it('takes test-mode keys only', () => {
    expect(() => loadConfig({ ...KEYS, STRIPE_SECRET_KEY: 'sk_live_abc' })).toThrow(/test-mode/);
  });
});
