/**
 * A sale through Stripe, from the payment to its end, tested at Stripe's boundary: Stripe's SDK
 * talks to the local double, and webhook calls carry the double's own events, signed as Stripe
 * signs them. The card is authorised at payment (the money held), captured at the handover, the
 * hold cancelled on a cancel or an expiry, a captured amount refunded on an admin's decision.
 * Every money step runs once at Stripe, whatever is asked twice, and is finished by the timed
 * work when Stripe was down or its answer was lost before we wrote it down.
 */

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { orders, payments, products } from '../../src/server/db/schema';
import type { Sales } from '../../src/server/domain/order-process';
import { runTimedWork } from '../../src/server/domain/timed-work';
import { settlePayment } from '../../src/server/payments/settle';
import { StripePaymentProvider } from '../../src/server/payments/stripe-provider';
import { DEFAULT_FEE_RULE } from '../../src/shared/fees';
import { type Account, createAccount, createAdmin } from '../helpers/accounts';
import { buyingCalls, PRICE_CENTS } from '../helpers/buying';
import { fingerprint } from '../helpers/fingerprint';
import { type Step, type StripeEvent, startStripeDouble } from '../helpers/stripe-double';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_localdouble',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_localdouble',
  STRIPE_WEBHOOK_SECRET: 'whsec_localdouble',
};
const DAY_MS = 24 * 60 * 60 * 1000;

let stripe: Awaited<ReturnType<typeof startStripeDouble>>;
let t: TestApp;
let seller: Account;
let admin: Account;
/** The app's sale process as its timed work sees it; the test runs the timed work itself. */
let sales: Sales;

beforeAll(async () => {
  stripe = await startStripeDouble(KEYS.STRIPE_SECRET_KEY, {
    webhookSecret: KEYS.STRIPE_WEBHOOK_SECRET,
  });
  t = await buildTestApp({ ...KEYS, STRIPE_API_URL: stripe.url });
  seller = await createAccount(t.app, 'seller');
  admin = await createAdmin(t.app);
  sales = {
    db: t.database.db,
    provider: new StripePaymentProvider({
      secretKey: KEYS.STRIPE_SECRET_KEY,
      webhookSecret: KEYS.STRIPE_WEBHOOK_SECRET,
      apiUrl: stripe.url,
    }),
    holdMs: 7 * DAY_MS,
    fees: DEFAULT_FEE_RULE,
    fundsHoldMs: 7 * DAY_MS,
  };
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

/** The calls of a sale on one app, as its buyer, seller, admin and Stripe make them. */
function saleCalls(context: () => { t: TestApp; seller: Account }) {
  const app = () => context().t.app;
  const db = () => context().t.database.db;
  const { phone, bookedOrder, intentFor } = buyingCalls(context);
  const post = (url: string, by: Account, payload?: object) =>
    app().inject({ method: 'POST', url, headers: by.bearer, ...(payload ? { payload } : {}) });

  const calls = {
    /** Stripe posting an event to our webhook, signed with our endpoint's secret. */
    deliver(event: StripeEvent | undefined) {
      if (!event) throw new Error('Stripe sent no such event');
      const { payload, signature } = stripe.signed(event);
      return app().inject({
        method: 'POST',
        url: '/api/stripe/webhook',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        payload,
      });
    },
    lastEvent: (intentId: string, type: string) => stripe.eventsOf(intentId, type).at(-1),
    handOver: (orderId: string, code: string, by = context().seller) =>
      post(`/api/orders/${orderId}/handover`, by, { code }),
    cancel: (orderId: string, by: Account) => post(`/api/orders/${orderId}/cancel`, by),
    report: (orderId: string, buyer: Account) =>
      post(`/api/orders/${orderId}/report`, buyer, { reason: 'The screen is cracked' }),
    decide: (orderId: string, decision: 'refund' | 'close') =>
      post(`/api/disputes/${orderId}`, admin, { decision }),
    order: async (id: string) => (await db().select().from(orders).where(eq(orders.id, id)))[0],
    payment: async (intentId: string) =>
      (await db().select().from(payments).where(eq(payments.transactionId, intentId)))[0],
    phoneStatus: async (id: string) =>
      (await db().select().from(products).where(eq(products.id, id)))[0]?.status,

    /**
     * A paid sale: booked, its intent confirmed at Stripe (the card authorised), recorded by
     * Stripe's event alone (the buyer's browser closed before its record call).
     */
    async paidSale() {
      const buyer = await createAccount(app(), 'user');
      const product = await phone();
      const order = await bookedOrder(buyer, product.id);
      const res = await intentFor(buyer, order.id);
      expect(res.statusCode).toBe(200);
      const intentId = res.json().clientSecret.split('_secret_')[0] as string;
      expect((await stripe.confirm(intentId)).status).toBe(200);
      const held = calls.lastEvent(intentId, 'payment_intent.amount_capturable_updated');
      expect((await calls.deliver(held)).statusCode).toBe(200);
      // The code the buyer gives at the meeting (read from the record: a short hold may be over).
      const code = (await calls.order(order.id))?.handoverCode as string;
      expect(code).toMatch(/^\d{6}$/);
      return { buyer, product, order, intentId, code };
    },
    /** A paid sale the seller handed over with the buyer's code. */
    async completedSale() {
      const sale = await calls.paidSale();
      expect((await calls.handOver(sale.order.id, sale.code)).statusCode).toBe(200);
      return sale;
    },
    /** A completed sale its buyer reported a problem with. */
    async disputedSale() {
      const sale = await calls.completedSale();
      expect((await calls.report(sale.order.id, sale.buyer)).statusCode).toBe(200);
      return sale;
    },
  };
  return calls;
}

const {
  deliver,
  lastEvent,
  handOver,
  cancel,
  report,
  decide,
  order: orderOf,
  payment: paymentOf,
  phoneStatus,
  paidSale,
  completedSale,
  disputedSale,
} = saleCalls(() => ({ t, seller }));

/** Our calls to Stripe for one money step of an intent (they carry the step's own key). */
const stepCalls = (action: 'capture' | 'cancel' | 'refund', intentId: string) =>
  stripe.requests.filter((r) => r.idempotencyKey === `${action}-${intentId}`);
const tables = () => fingerprint(t.database.db);

describe('a sale through Stripe', () => {
  it("holds the money at payment, and captures it once at the handover with the buyer's code", async () => {
    const { order, product, intentId, code } = await paidSale();
    expect(await orderOf(order.id)).toMatchObject({ stage: 'paid', status: 'paid' });
    expect(await phoneStatus(product.id)).toBe('sold');
    expect((await paymentOf(intentId))?.money).toBe('held');
    expect(stripe.intents.get(intentId)).toMatchObject({
      capture_method: 'manual',
      status: 'requires_capture',
      amount_capturable: PRICE_CENTS,
      amount_received: 0,
    });

    const wrong = code === '000000' ? '000001' : '000000';
    expect((await handOver(order.id, wrong)).statusCode).toBe(400);
    expect(stripe.intents.get(intentId)?.status).toBe('requires_capture');

    expect((await handOver(order.id, code)).statusCode).toBe(200);
    expect((await orderOf(order.id))?.stage).toBe('completed');
    const payment = await paymentOf(intentId);
    expect(payment?.money).toBe('captured');
    expect(payment?.settledAt).toBeInstanceOf(Date);
    const intent = stripe.intents.get(intentId);
    expect(intent).toMatchObject({ status: 'succeeded', amount_received: PRICE_CENTS });
    expect(stripe.charges.get(intent?.latest_charge as string)).toMatchObject({
      captured: true,
      amount_captured: PRICE_CENTS,
      amount_refunded: 0,
    });
    expect(stripe.ran('capture', intentId)).toBe(1);
    expect(stepCalls('capture', intentId).map((r) => r.status)).toEqual([200]);

    // Stripe's events of the capture arrive afterwards, twice: nothing changes.
    const before = await tables();
    for (const type of ['payment_intent.succeeded', 'charge.captured']) {
      for (let i = 0; i < 2; i++) {
        expect((await deliver(lastEvent(intentId, type))).statusCode).toBe(200);
      }
    }
    expect(await tables()).toEqual(before);
  });

  it.each(['buyer', 'seller'] as const)(
    'a cancel by the %s releases the hold at Stripe once and puts the phone back on sale',
    async (side) => {
      const sale = await paidSale();
      const by = side === 'buyer' ? sale.buyer : seller;
      expect((await cancel(sale.order.id, by)).statusCode).toBe(200);
      expect(await orderOf(sale.order.id)).toMatchObject({
        stage: 'cancelled',
        cancelledBy: side,
      });
      expect((await paymentOf(sale.intentId))?.money).toBe('released');
      expect(await phoneStatus(sale.product.id)).toBe('available');
      expect(stripe.intents.get(sale.intentId)).toMatchObject({
        status: 'canceled',
        amount_capturable: 0,
        amount_received: 0,
      });
      expect(stripe.ran('cancel', sale.intentId)).toBe(1);
      expect(stepCalls('cancel', sale.intentId).map((r) => r.status)).toEqual([200]);

      const calls = stripe.requests.length;
      expect((await cancel(sale.order.id, by)).statusCode).toBe(409);
      expect((await handOver(sale.order.id, sale.code)).statusCode).toBe(409);
      expect(stripe.requests.length).toBe(calls);

      const before = await tables();
      const cancelled = lastEvent(sale.intentId, 'payment_intent.canceled');
      expect((await deliver(cancelled)).statusCode).toBe(200);
      expect(await tables()).toEqual(before);
      expect(stripe.ran('capture', sale.intentId)).toBe(0);
    },
  );

  it('refunds the captured payment at Stripe once when an admin decides a reported problem for the buyer', async () => {
    const { order, intentId } = await disputedSale();
    expect((await decide(order.id, 'refund')).statusCode).toBe(200);
    expect((await orderOf(order.id))?.stage).toBe('refunded');
    expect((await paymentOf(intentId))?.money).toBe('refunded');
    const charge = stripe.charges.get(stripe.intents.get(intentId)?.latest_charge as string);
    expect(charge).toMatchObject({ refunded: true, amount_refunded: PRICE_CENTS });
    expect(stripe.ran('refund', intentId)).toBe(1);
    expect(stepCalls('refund', intentId).map((r) => r.status)).toEqual([200]);

    expect((await decide(order.id, 'refund')).statusCode).toBe(409);
    const before = await tables();
    expect((await deliver(lastEvent(intentId, 'charge.refunded'))).statusCode).toBe(200);
    expect(await tables()).toEqual(before);
    expect(stripe.ran('refund', intentId)).toBe(1);
  });

  it('closing a reported problem leaves the money with the seller', async () => {
    const { order, intentId } = await disputedSale();
    expect((await decide(order.id, 'close')).statusCode).toBe(200);
    expect((await orderOf(order.id))?.stage).toBe('completed');
    expect((await paymentOf(intentId))?.money).toBe('captured');
    expect(stepCalls('refund', intentId)).toEqual([]);
  });

  it('takes every event of a sale again, in any order, without changing anything', async () => {
    const { order, intentId } = await disputedSale();
    expect((await decide(order.id, 'refund')).statusCode).toBe(200);
    const events = stripe.eventsOf(intentId);
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining([
        'payment_intent.amount_capturable_updated',
        'payment_intent.succeeded',
        'charge.captured',
        'charge.refunded',
      ]),
    );
    const before = await tables();
    const stepsBefore = stripe.steps.length;
    for (const event of events.toReversed()) {
      expect((await deliver(event)).statusCode).toBe(200);
    }
    expect(await tables()).toEqual(before);
    expect(stripe.steps.length).toBe(stepsBefore);
  });
});

describe('a hold that runs out before the handover', () => {
  let short: TestApp;
  let shortSeller: Account;
  const calls = saleCalls(() => ({ t: short, seller: shortSeller }));

  beforeAll(async () => {
    // A hold of under a second, and the timed work every 100 ms once the server listens.
    short = await buildTestApp({
      ...KEYS,
      STRIPE_API_URL: stripe.url,
      HOLD_DAYS: '0.00001',
      TIMED_WORK_MS: '100',
    });
    shortSeller = await createAccount(short.app, 'seller');
    await short.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await short?.close();
  });

  it("is released at Stripe by the server's timed work, once, and the phone is for sale again", async () => {
    const { order, product, intentId, code } = await calls.paidSale();
    await vi.waitFor(async () => expect((await calls.payment(intentId))?.money).toBe('released'), {
      timeout: 15_000,
      interval: 100,
    });
    expect((await calls.order(order.id))?.stage).toBe('expired');
    expect(await calls.phoneStatus(product.id)).toBe('available');
    expect(stripe.intents.get(intentId)?.status).toBe('canceled');
    expect(stripe.ran('cancel', intentId)).toBe(1);
    expect((await calls.handOver(order.id, code)).statusCode).toBe(409);
    expect(stripe.ran('capture', intentId)).toBe(0);
  });
});

/** A money step taken through the API, and where it leaves the payment. */
type MoneyStep = {
  action: 'capture' | 'cancel' | 'refund';
  ran: Step['action'];
  pending: string;
  done: string;
  /** A sale ready for the step, and the call that takes it. */
  make: () => Promise<{ intentId: string; take: () => ReturnType<typeof handOver> }>;
};

const MONEY_STEPS: [string, MoneyStep][] = [
  [
    'the capture at the handover',
    {
      action: 'capture',
      ran: 'capture',
      pending: 'capturing',
      done: 'captured',
      make: async () => {
        const sale = await paidSale();
        return { intentId: sale.intentId, take: () => handOver(sale.order.id, sale.code) };
      },
    },
  ],
  [
    "the release at the buyer's cancel",
    {
      action: 'cancel',
      ran: 'cancel',
      pending: 'releasing',
      done: 'released',
      make: async () => {
        const sale = await paidSale();
        return { intentId: sale.intentId, take: () => cancel(sale.order.id, sale.buyer) };
      },
    },
  ],
  [
    "the refund at an admin's decision",
    {
      action: 'refund',
      ran: 'refund',
      pending: 'refunding',
      done: 'refunded',
      make: async () => {
        const sale = await disputedSale();
        return { intentId: sale.intentId, take: () => decide(sale.order.id, 'refund') };
      },
    },
  ],
];

describe('each money step happens exactly once, whatever goes wrong on the way', () => {
  it.each(MONEY_STEPS)(
    'Stripe down during %s: the sale moves on, the step waits, and the timed work does it once Stripe answers',
    async (_, step) => {
      const { intentId, take } = await step.make();
      stripe.setFailing(true);
      try {
        // The transition stands; the money step is left to the timed work.
        expect((await take()).statusCode).toBe(200);
        expect((await paymentOf(intentId))?.money).toBe(step.pending);
        await runTimedWork(sales);
        expect((await paymentOf(intentId))?.money).toBe(step.pending);
      } finally {
        stripe.setFailing(false);
      }
      expect(stripe.ran(step.ran, intentId)).toBe(0);
      await runTimedWork(sales);
      expect((await paymentOf(intentId))?.money).toBe(step.done);
      expect(stripe.ran(step.ran, intentId)).toBe(1);
      await runTimedWork(sales);
      expect(stripe.ran(step.ran, intentId)).toBe(1);
    },
  );

  it.each(MONEY_STEPS)(
    'Stripe did %s but its answer was lost, as if we crashed before writing it down: asked again, Stripe replays it and nothing moves twice',
    async (_, step) => {
      const { intentId, take } = await step.make();
      stripe.setLosingAnswers(true);
      try {
        expect((await take()).statusCode).toBe(200);
      } finally {
        stripe.setLosingAnswers(false);
      }
      // Stripe did the step; we do not know it yet.
      expect(stripe.ran(step.ran, intentId)).toBe(1);
      expect((await paymentOf(intentId))?.money).toBe(step.pending);

      await runTimedWork(sales);
      expect((await paymentOf(intentId))?.money).toBe(step.done);
      expect(stripe.ran(step.ran, intentId)).toBe(1);
      const last = stepCalls(step.action, intentId).at(-1);
      expect(last).toMatchObject({ status: 200, replayed: true });
    },
  );

  it('two handovers with the right code at once: one completes the sale, Stripe captures once', async () => {
    const { order, intentId, code } = await paidSale();
    const answers = await Promise.all([handOver(order.id, code), handOver(order.id, code)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect((await paymentOf(intentId))?.money).toBe('captured');
    expect(stripe.ran('capture', intentId)).toBe(1);
  });

  it('the buyer and the seller cancelling at once: one cancel, Stripe releases once', async () => {
    const { order, buyer, intentId } = await paidSale();
    const answers = await Promise.all([cancel(order.id, buyer), cancel(order.id, seller)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect((await paymentOf(intentId))?.money).toBe('released');
    expect(stripe.ran('cancel', intentId)).toBe(1);
  });

  it('a step asked again of the provider, or settled again, is done and not done twice', async () => {
    const captured = await completedSale();
    const cancelled = await paidSale();
    expect((await cancel(cancelled.order.id, cancelled.buyer)).statusCode).toBe(200);
    const refunded = await disputedSale();
    expect((await decide(refunded.order.id, 'refund')).statusCode).toBe(200);

    const { provider } = sales;
    await Promise.all([provider.capture(captured.intentId), provider.capture(captured.intentId)]);
    await provider.cancel(cancelled.intentId);
    await provider.cancel(cancelled.intentId);
    await provider.refund(refunded.intentId);
    await provider.refund(refunded.intentId);
    expect(stripe.ran('capture', captured.intentId)).toBe(1);
    expect(stripe.ran('cancel', cancelled.intentId)).toBe(1);
    expect(stripe.ran('refund', refunded.intentId)).toBe(1);

    for (const sale of [captured, cancelled, refunded]) {
      const payment = await paymentOf(sale.intentId);
      expect(await settlePayment(t.database.db, provider, payment?.id as string)).toBe(false);
    }
    // A released hold is never captured, nor a captured payment released.
    await expect(provider.capture(cancelled.intentId)).rejects.toThrow(/cannot be captured/);
    expect(stripe.ran('capture', cancelled.intentId)).toBe(0);
  });
});

describe("Stripe's own moves, told by its webhook", () => {
  it.each([
    ["the card's authorisation ran out", (id: string) => stripe.expireAuthorization(id)],
    ["someone cancelled the intent in Stripe's dashboard", (id: string) => stripe.cancel(id)],
  ])(
    'when %s, the paid sale expires, the phone is for sale again, and nothing is cancelled twice',
    async (_, cancelAtStripe) => {
      const { order, product, intentId, code } = await paidSale();
      await cancelAtStripe(intentId);
      const cancelled = lastEvent(intentId, 'payment_intent.canceled');
      expect((await deliver(cancelled)).statusCode).toBe(200);
      expect((await orderOf(order.id))?.stage).toBe('expired');
      expect((await paymentOf(intentId))?.money).toBe('released');
      expect(await phoneStatus(product.id)).toBe('available');
      // Our release found the hold gone: Stripe refused it, nothing ran twice.
      expect(stepCalls('cancel', intentId).map((r) => r.status)).toEqual([400]);
      expect(stripe.steps.filter((s) => s.intent === intentId).map((s) => s.action)).toEqual([
        'confirm',
        expect.stringMatching(/^(expire|cancel)$/),
      ]);

      const before = await tables();
      expect((await deliver(cancelled)).statusCode).toBe(200);
      expect(await tables()).toEqual(before);
      expect((await handOver(order.id, code)).statusCode).toBe(409);
    },
  );

  it('a signed payment_intent.canceled that Stripe does not confirm changes nothing', async () => {
    const { order, intentId } = await paidSale();
    const forged: StripeEvent = {
      ...(lastEvent(intentId, 'payment_intent.amount_capturable_updated') as StripeEvent),
      id: 'evt_forged',
      type: 'payment_intent.canceled',
    };
    forged.data = { object: { ...forged.data.object, status: 'canceled' } };
    const before = await tables();
    expect((await deliver(forged)).statusCode).toBe(200);
    expect(await tables()).toEqual(before);
    expect((await orderOf(order.id))?.stage).toBe('paid');
    expect(stripe.intents.get(intentId)?.status).toBe('requires_capture');
  });

  it('money captured in the dashboard before the handover: its event changes nothing, the handover finds it captured', async () => {
    const { order, intentId, code } = await paidSale();
    expect((await stripe.capture(intentId)).status).toBe(200);
    const before = await tables();
    expect((await deliver(lastEvent(intentId, 'payment_intent.succeeded'))).statusCode).toBe(200);
    expect(await tables()).toEqual(before);

    expect((await handOver(order.id, code)).statusCode).toBe(200);
    expect((await paymentOf(intentId))?.money).toBe('captured');
    expect(stripe.ran('capture', intentId)).toBe(1);
  });

  it("money captured in the dashboard, then the sale cancelled: the buyer's money goes back as one refund", async () => {
    const { order, buyer, intentId } = await paidSale();
    expect((await stripe.capture(intentId)).status).toBe(200);
    expect((await cancel(order.id, buyer)).statusCode).toBe(200);
    expect((await paymentOf(intentId))?.money).toBe('released');
    const charge = stripe.charges.get(stripe.intents.get(intentId)?.latest_charge as string);
    expect(charge).toMatchObject({ refunded: true, amount_refunded: PRICE_CENTS });
    expect(stripe.ran('refund', intentId)).toBe(1);
    await runTimedWork(sales);
    expect(stripe.ran('refund', intentId)).toBe(1);
  });

  it("a refund made in the dashboard after the handover changes no sale, and an admin's refund later does not refund twice", async () => {
    const { order, buyer, intentId } = await completedSale();
    await stripe.refund(intentId);
    const before = await tables();
    expect((await deliver(lastEvent(intentId, 'charge.refunded'))).statusCode).toBe(200);
    expect(await tables()).toEqual(before);

    expect((await report(order.id, buyer)).statusCode).toBe(200);
    expect((await decide(order.id, 'refund')).statusCode).toBe(200);
    expect((await paymentOf(intentId))?.money).toBe('refunded');
    expect(stripe.ran('refund', intentId)).toBe(1);
  });

  it('left open: a handover after Stripe let the hold go, before its event came, is never captured and waits for the operator', async () => {
    const { order, intentId, code } = await paidSale();
    stripe.expireAuthorization(intentId);
    expect((await handOver(order.id, code)).statusCode).toBe(200);
    expect((await paymentOf(intentId))?.money).toBe('capturing');
    expect((await runTimedWork(sales)).settled).toBe(0);
    expect((await paymentOf(intentId))?.money).toBe('capturing');
    // The late event finds no held money: the completed sale is not expired.
    expect((await deliver(lastEvent(intentId, 'payment_intent.canceled'))).statusCode).toBe(200);
    expect((await orderOf(order.id))?.stage).toBe('completed');
    expect(stripe.ran('capture', intentId)).toBe(0);
  });
});
