import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, paymentIntents, payments, products } from '../../src/server/db/schema';
import { type Account, createAccount } from '../helpers/accounts';
import { buyingCalls, PRICE_CENTS } from '../helpers/buying';
import { buildTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
let seller: Account;
const { phone, bookedOrder, intentFor, confirmCard, recordCall } = buyingCalls(() => ({
  t,
  seller,
}));

beforeAll(async () => {
  t = await buildTestApp();
  seller = await createAccount(t.app, 'seller');
});
afterAll(() => t.close());

const CARD = { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2034, cvc: '123' };

const confirm = (clientSecret: string, card = CARD) => confirmCard(clientSecret, card);

describe('paying for a booked phone', () => {
  it("holds the order's price, records the payment once, marks the order paid and the phone sold", async () => {
    const buyer = await createAccount(t.app, 'user');
    const p = await phone();
    const order = await bookedOrder(buyer, p.id);
    const { clientSecret } = (await intentFor(buyer, order.id)).json();
    const confirmed = await confirm(clientSecret);
    expect(confirmed.json().paymentIntent).toMatchObject({
      status: 'requires_capture',
      amount: PRICE_CENTS,
      currency: 'usd',
    });
    const transactionId = confirmed.json().paymentIntent.id;

    const first = await recordCall(buyer, transactionId, order.id);
    const again = await recordCall(buyer, transactionId, order.id);
    expect(first.statusCode).toBe(200);
    expect(again.json().insertedId).toBe(first.json().insertedId);
    const recorded = await t.database.db
      .select()
      .from(payments)
      .where(eq(payments.transactionId, transactionId));
    expect(recorded).toHaveLength(1);
    expect(recorded[0]?.priceCents).toBe(PRICE_CENTS);
    const [paid] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(paid).toMatchObject({ status: 'paid', stage: 'paid' });
    expect(paid?.handoverCode).toMatch(/^\d{6}$/);
    expect(recorded[0]?.money).toBe('held');
    const [sold] = await t.database.db.select().from(products).where(eq(products.id, p.id));
    expect(sold?.status).toBe('sold');
  });

  it('records the payment when the card is confirmed, even if the browser never calls back', async () => {
    const buyer = await createAccount(t.app, 'user');
    const order = await bookedOrder(buyer, (await phone()).id);
    await confirm((await intentFor(buyer, order.id)).json().clientSecret);
    const [paid] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(paid?.status).toBe('paid');
  });

  it('tells a buyer whose hold was released that the phone sold first, even once it is for sale again', async () => {
    const p = await phone();
    const [first, second] = await Promise.all([
      createAccount(t.app, 'user'),
      createAccount(t.app, 'user'),
    ]);
    const firstOrder = await bookedOrder(first, p.id);
    const secondOrder = await bookedOrder(second, p.id);
    const secondSecret = (await intentFor(second, secondOrder.id)).json().clientSecret;
    await confirm((await intentFor(first, firstOrder.id)).json().clientSecret);
    const late = (await confirm(secondSecret)).json().paymentIntent;
    expect(late.status).toBe('canceled');
    // The first sale is cancelled before the second buyer's page records its payment.
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${firstOrder.id}/cancel`,
      headers: first.bearer,
    });
    expect(cancelled.statusCode).toBe(200);
    const res = await recordCall(second, late.id, secondOrder.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/hold on your card has been released/);
    expect(
      await t.database.db.select().from(payments).where(eq(payments.orderId, secondOrder.id)),
    ).toHaveLength(0);
  });

  it('refuses an intent for another price than the order, and charges nothing', async () => {
    const buyer = await createAccount(t.app, 'user');
    const order = await bookedOrder(buyer, (await phone()).id);
    const res = await intentFor(buyer, order.id, 1);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/price/);
    expect(
      await t.database.db.select().from(paymentIntents).where(eq(paymentIntents.orderId, order.id)),
    ).toHaveLength(0);
  });

  it("lets nobody else pay or record a buyer's order", async () => {
    const buyer = await createAccount(t.app, 'user');
    const other = await createAccount(t.app, 'user');
    const order = await bookedOrder(buyer, (await phone()).id);
    expect((await intentFor(other, order.id)).statusCode).toBe(403);
    const { clientSecret } = (await intentFor(buyer, order.id)).json();
    const id = (await confirm(clientSecret)).json().paymentIntent.id;
    expect((await recordCall(other, id, order.id)).statusCode).toBe(403);
  });

  it.each([
    ['4000 0000 0000 0002', 'Your card was declined.'],
    ['4000 0000 0000 9995', 'Your card has insufficient funds.'],
    ['4000 0000 0000 0069', 'Your card has expired.'],
    ['4000 0000 0000 0127', "Your card's security code is incorrect."],
    ['4242 4242 4242 4241', 'Your card number is invalid.'],
  ])('declines the test card %s with "%s" and records nothing', async (number, message) => {
    const buyer = await createAccount(t.app, 'user');
    const order = await bookedOrder(buyer, (await phone()).id);
    const { clientSecret } = (await intentFor(buyer, order.id)).json();
    const res = await confirm(clientSecret, { ...CARD, number });
    expect(res.statusCode).toBe(402);
    expect(res.json().error).toMatchObject({ type: 'card_error', message });
    const intentId = clientSecret.split('_secret_')[0];
    expect((await recordCall(buyer, intentId, order.id)).statusCode).toBe(400);
    expect(
      await t.database.db.select().from(payments).where(eq(payments.orderId, order.id)),
    ).toHaveLength(0);
  });

  it('refuses a card whose expiry date has passed', async () => {
    const buyer = await createAccount(t.app, 'user');
    const order = await bookedOrder(buyer, (await phone()).id);
    const res = await confirm((await intentFor(buyer, order.id)).json().clientSecret, {
      ...CARD,
      expYear: 2020,
    });
    expect(res.statusCode).toBe(402);
    expect(res.json().error.message).toMatch(/expiration date/);
  });
});

describe('twenty buyers paying for one phone at once', () => {
  it('ends with exactly one paid order, nineteen released holds, and sums that add up', async () => {
    const p = await phone();
    const buyers = await Promise.all(
      Array.from({ length: 20 }, () => createAccount(t.app, 'user')),
    );
    const booked = await Promise.all(buyers.map((b) => bookedOrder(b, p.id)));
    const secrets = await Promise.all(
      buyers.map(async (b, i) => (await intentFor(b, booked[i]?.id as string)).json().clientSecret),
    );

    const confirmed = await Promise.all(secrets.map((s) => confirm(s)));
    const records = await Promise.all(
      buyers.map((b, i) =>
        recordCall(b, confirmed[i]?.json().paymentIntent.id, booked[i]?.id as string),
      ),
    );

    expect(records.filter((r) => r.statusCode === 200)).toHaveLength(1);
    const refused = records.filter((r) => r.statusCode === 409);
    expect(refused).toHaveLength(19);
    expect(refused[0]?.json().message).toMatch(/hold on your card has been released/);

    const paidOrders = await t.database.db.select().from(orders).where(eq(orders.productId, p.id));
    expect(paidOrders.filter((o) => o.status === 'paid')).toHaveLength(1);
    const intents = await Promise.all(
      confirmed.map((c) =>
        t.database.db
          .select()
          .from(paymentIntents)
          .where(eq(paymentIntents.id, c.json().paymentIntent.id)),
      ),
    );
    const statuses = intents.map((r) => r[0]?.status);
    expect(statuses.filter((s) => s === 'requires_capture')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'canceled')).toHaveLength(19);
    const kept = await t.database.db.select().from(payments).where(eq(payments.productId, p.id));
    expect(kept.reduce((sum, x) => sum + x.priceCents, 0)).toBe(PRICE_CENTS);
  });
});
