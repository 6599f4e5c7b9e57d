/**
 * A sale from booking to handover (issue 17): every transition of the order process and every
 * refusal (wrong person, wrong stage, wrong code, expired hold, double capture, cancel after the
 * handover), with the money's state in our records and in the embedded processor checked at
 * each step.
 */

import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  notifications,
  orders,
  outboxMails,
  paymentIntents,
  payments,
  products,
  users,
} from '../../src/server/db/schema';
import type { DomainError } from '../../src/server/domain/domain-error';
import { handOver, type Sales } from '../../src/server/domain/order-process';
import { runTimedWork } from '../../src/server/domain/timed-work';
import { EmbeddedPaymentProvider } from '../../src/server/payments/embedded-processor';
import type { PaymentProvider } from '../../src/server/payments/payment-provider';
import { settlePayment } from '../../src/server/payments/settle';
import { DEFAULT_FEE_RULE } from '../../src/shared/fees';
import { type Account, createAccount, createAdmin } from '../helpers/accounts';
import { buyingCalls, PRICE_CENTS } from '../helpers/buying';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const CARD = { number: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' };
const DAY_MS = 24 * 60 * 60 * 1000;

let t: TestApp;
let seller: Account;
let otherSeller: Account;
let admin: Account;
let sales: Sales;
const { phone, intentFor, confirmCard } = buyingCalls(() => ({ t, seller }));

beforeAll(async () => {
  t = await buildTestApp();
  seller = await createAccount(t.app, 'seller');
  otherSeller = await createAccount(t.app, 'seller');
  admin = await createAdmin(t.app);
  sales = {
    db: t.database.db,
    provider: new EmbeddedPaymentProvider(t.database.db),
    holdMs: 7 * DAY_MS,
    fees: DEFAULT_FEE_RULE,
    fundsHoldMs: 7 * DAY_MS,
  };
});
afterAll(() => t.close());

const call = (
  who: Account | null,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: object,
) =>
  t.app.inject({
    method,
    url,
    ...(who ? { headers: who.bearer } : {}),
    ...(payload ? { payload } : {}),
  });

async function book(buyer: Account, productId: string) {
  const res = await call(buyer, 'POST', '/api/order', {
    productId,
    location: 'City Library',
    number: '+1 303 555 0142',
  });
  expect(res.statusCode).toBe(200);
  return res.json().insertedId as string;
}

/** A buyer books and pays (the card is authorised); the order's id and intent's id. */
async function paidSale(productId?: string) {
  const buyer = await createAccount(t.app, 'user');
  const product = productId ?? (await phone()).id;
  const orderId = await book(buyer, product);
  const { clientSecret } = (await intentFor(buyer, orderId)).json();
  const confirmed = await confirmCard(clientSecret, CARD);
  expect(confirmed.json().paymentIntent.status).toBe('requires_capture');
  return { buyer, orderId, productId: product, intentId: confirmed.json().paymentIntent.id };
}

const saleAs = async (who: Account, orderId: string) => call(who, 'GET', `/api/orders/${orderId}`);
const orderRow = async (id: string) =>
  (await t.database.db.select().from(orders).where(eq(orders.id, id)))[0];
const paymentRow = async (orderId: string) =>
  (await t.database.db.select().from(payments).where(eq(payments.orderId, orderId)))[0];
const intentStatus = async (id: string) =>
  (await t.database.db.select().from(paymentIntents).where(eq(paymentIntents.id, id)))[0]?.status;
const productStatus = async (id: string) =>
  (await t.database.db.select().from(products).where(eq(products.id, id)))[0]?.status;
const codeOf = async (buyer: Account, orderId: string) =>
  (await saleAs(buyer, orderId)).json().handoverCode as string;
const handover = (who: Account, orderId: string, code: string) =>
  call(who, 'POST', `/api/orders/${orderId}/handover`, { code });
const wrongCodeFor = (code: string) => (code === '000000' ? '000001' : '000000');

async function completedSale() {
  const sale = await paidSale();
  expect(
    (await handover(seller, sale.orderId, await codeOf(sale.buyer, sale.orderId))).statusCode,
  ).toBe(200);
  return sale;
}

describe('a booked order', () => {
  it('answers its id, and shows each side names only: no numbers, no code', async () => {
    const buyer = await createAccount(t.app, 'user');
    const p = await phone();
    const orderId = await book(buyer, p.id);
    const asBuyer = (await saleAs(buyer, orderId)).json();
    expect(asBuyer).toMatchObject({ stage: 'booked', status: 'unpaid', side: 'buyer' });
    expect(asBuyer.actions).toEqual(['pay', 'cancel']);
    expect(asBuyer.seller.number).toBeNull();
    expect(asBuyer.handoverCode).toBeNull();
    const asSeller = (await saleAs(seller, orderId)).json();
    expect(asSeller).toMatchObject({ side: 'seller', actions: [] });
    expect(asSeller.buyer).toMatchObject({ name: buyer.name, number: null, email: null });
    expect(
      (await call(seller, 'GET', '/api/sales')).json().map((s: { _id: string }) => s._id),
    ).toContain(orderId);
    expect((await call(buyer, 'GET', '/api/bookings')).json()).toContainEqual({
      orderId,
      productId: p.id,
      stage: 'booked',
    });
  });

  it('is nobody else’s to see or act on', async () => {
    const buyer = await createAccount(t.app, 'user');
    const stranger = await createAccount(t.app, 'user');
    const orderId = await book(buyer, (await phone()).id);
    expect((await saleAs(stranger, orderId)).statusCode).toBe(403);
    expect((await saleAs(otherSeller, orderId)).statusCode).toBe(403);
    expect((await call(null, 'GET', `/api/orders/${orderId}`)).statusCode).toBe(401);
    expect((await call(otherSeller, 'GET', '/api/sales')).json()).toEqual([]);
    expect((await saleAs(stranger, crypto.randomUUID())).statusCode).toBe(404);
  });
});

describe('paying', () => {
  it('holds the money, reserves the phone, and gives the buyer the code and both sides the numbers', async () => {
    const { buyer, orderId, productId, intentId } = await paidSale();
    expect(await intentStatus(intentId)).toBe('requires_capture');
    expect((await paymentRow(orderId))?.money).toBe('held');
    expect(await productStatus(productId)).toBe('sold');

    const asBuyer = (await saleAs(buyer, orderId)).json();
    expect(asBuyer).toMatchObject({ stage: 'paid', status: 'paid', money: 'held' });
    expect(asBuyer.handoverCode).toMatch(/^\d{6}$/);
    expect(asBuyer.seller).toMatchObject({ name: expect.any(String), email: seller.email });
    expect(asBuyer.seller.number).not.toBeNull();
    expect(asBuyer.actions).toEqual(['cancel']);
    expect(Date.parse(asBuyer.holdExpiresAt) - Date.parse(asBuyer.paidAt)).toBe(7 * DAY_MS);

    const asSeller = (await saleAs(seller, orderId)).json();
    expect(asSeller.handoverCode).toBeNull();
    expect(asSeller.buyer).toMatchObject({ number: '+1 303 555 0142', email: buyer.email });
    expect(asSeller.actions).toEqual(['handover', 'cancel']);
  });

  it('tells the other buyers of the phone it was sold to someone else, and takes no payment from them', async () => {
    const p = await phone();
    const late = await createAccount(t.app, 'user');
    const lateOrder = await book(late, p.id);
    await paidSale(p.id);
    const mine = (await call(late, 'GET', `/api/order?email=${late.email}`)).json();
    expect(mine[0]).toMatchObject({ _id: lateOrder, stage: 'booked', soldElsewhere: true });
    expect((await saleAs(late, lateOrder)).json()).toMatchObject({
      soldElsewhere: true,
      actions: ['cancel'],
    });
    expect((await intentFor(late, lateOrder)).statusCode).toBe(409);
  });
});

describe('the handover', () => {
  it('completes the sale with the right code and captures the money once', async () => {
    const { buyer, orderId, intentId } = await paidSale();
    const code = await codeOf(buyer, orderId);
    expect((await handover(seller, orderId, code)).statusCode).toBe(200);
    expect(await orderRow(orderId)).toMatchObject({ stage: 'completed', status: 'paid' });
    expect((await paymentRow(orderId))?.money).toBe('captured');
    expect(await intentStatus(intentId)).toBe('succeeded');
    // The code is not shown once it has done its work; a second handover changes nothing.
    expect((await saleAs(buyer, orderId)).json().handoverCode).toBeNull();
    const again = await handover(seller, orderId, code);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already completed/);
    // Settling again (a retried step) asks nothing twice.
    const payment = await paymentRow(orderId);
    expect(await settlePayment(t.database.db, sales.provider, payment?.id as string)).toBe(false);
  });

  it('refuses a wrong code, counts it, and locks the code after five', async () => {
    const { buyer, orderId } = await paidSale();
    const code = await codeOf(buyer, orderId);
    const wrong = wrongCodeFor(code);
    const first = await handover(seller, orderId, wrong);
    expect(first.statusCode).toBe(400);
    expect(first.json().message).toBe(
      "That code is not right. 4 tries left before a 15-minute wait. After 14 more wrong codes the sale is cancelled and the hold on the buyer's card released.",
    );
    for (let i = 0; i < 4; i++) await handover(seller, orderId, wrong);
    const locked = await handover(seller, orderId, code);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toMatch(/Too many wrong codes/);
    expect((await orderRow(orderId))?.stage).toBe('paid');
    expect((await paymentRow(orderId))?.money).toBe('held');
    expect((await saleAs(seller, orderId)).json().handoverLockedUntil).not.toBeNull();
  });

  it('cancels the sale at the fifteenth wrong code in all: the hold released, the phone for sale, both sides told', async () => {
    const { buyer, orderId, productId, intentId } = await paidSale();
    const wrong = wrongCodeFor(await codeOf(buyer, orderId));
    // The code locks for 15 minutes after every fifth; the lock is moved into the past between tries.
    const unlock = () =>
      t.database.db
        .update(orders)
        .set({ handoverLockedUntil: new Date(Date.now() - 1000) })
        .where(eq(orders.id, orderId));
    // The route takes 10 tries a minute per seller and sale: the first ten go through it, the
    // rest straight to the order process (the count is the order's, whoever reaches it).
    const [sellerRow] = await t.database.db
      .select()
      .from(users)
      .where(eq(users.email, seller.email));
    const sellerCaller = { ...(sellerRow as typeof users.$inferSelect) };
    const tryWrong = async () => {
      await unlock();
      return handOver(sales, sellerCaller, orderId, wrong).then(
        () => ({ status: 200, message: '' }),
        (err: DomainError) => ({ status: err.statusCode, message: err.message }),
      );
    };
    const answers: { status: number; message: string }[] = [];
    for (let i = 1; i <= 10; i++) {
      await unlock();
      const res = await handover(seller, orderId, wrong);
      answers.push({ status: res.statusCode, message: res.json().message });
    }
    for (let i = 11; i <= 14; i++) answers.push(await tryWrong());
    expect(answers.map((a) => a.status)).toEqual(Array(14).fill(400));
    expect(answers[9]?.message).toBe(
      "That code is not right. That was too many wrong codes: try again in 15 minutes. After 5 more wrong codes the sale is cancelled and the hold on the buyer's card released.",
    );
    expect(answers[13]?.message).toBe(
      "That code is not right. 1 try left before the sale is cancelled and the hold on the buyer's card released.",
    );
    // The fourteenth still only refuses.
    expect(await orderRow(orderId)).toMatchObject({ stage: 'paid', handoverFailures: 14 });
    expect((await paymentRow(orderId))?.money).toBe('held');
    expect(await productStatus(productId)).toBe('sold');

    const last = await tryWrong();
    expect(last.status).toBe(409);
    expect(last.message).toBe(
      "That code is not right. After too many wrong codes the sale is cancelled and the hold on the buyer's card released.",
    );
    expect(await orderRow(orderId)).toMatchObject({ stage: 'cancelled', cancelledBy: null });
    expect((await paymentRow(orderId))?.money).toBe('released');
    expect(await intentStatus(intentId)).toBe('canceled');
    expect(await productStatus(productId)).toBe('available');
    const told = `The sale of ${(await orderRow(orderId))?.productName} was cancelled: the seller entered a wrong handover code 15 times. The hold on the buyer's card is released.`;
    for (const side of [buyer, seller]) {
      const [account] = await t.database.db.select().from(users).where(eq(users.email, side.email));
      const notes = await t.database.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, account?.id as string), eq(notifications.text, told)));
      expect(notes).toHaveLength(1);
      const mails = await t.database.db
        .select()
        .from(outboxMails)
        .where(and(eq(outboxMails.toAddress, side.email), eq(outboxMails.kind, 'cancel')));
      expect(mails.some((m) => m.textBody.includes(told))).toBe(true);
    }
    // Once: further guesses find the sale cancelled, and count nothing.
    expect(await tryWrong()).toEqual({ status: 409, message: 'This sale is already cancelled' });
    expect((await orderRow(orderId))?.handoverFailures).toBe(15);
  });

  it('is the seller’s of that sale alone, and needs six digits', async () => {
    const { buyer, orderId } = await paidSale();
    const code = await codeOf(buyer, orderId);
    expect((await handover(otherSeller, orderId, code)).statusCode).toBe(403);
    expect((await handover(buyer, orderId, code)).statusCode).toBe(403);
    expect((await handover(admin, orderId, code)).statusCode).toBe(403);
    const short = await handover(seller, orderId, '123');
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toMatch(/six digits/);
    expect((await orderRow(orderId))?.stage).toBe('paid');
  });

  it('counts another seller’s tries apart from the sale’s own seller, however the id is spelled', async () => {
    const { buyer, orderId } = await paidSale();
    for (let i = 0; i < 10; i++)
      expect((await handover(otherSeller, orderId, '000000')).statusCode).toBe(403);
    const upper = orderId.toUpperCase();
    for (let i = 0; i < 10; i++) await handover(otherSeller, upper, '000000');
    expect((await handover(seller, orderId, await codeOf(buyer, orderId))).statusCode).toBe(200);
  });

  it('is refused past the hold’s deadline, and the sale expires then, not at the next round', async () => {
    const { buyer, orderId, productId } = await paidSale();
    const code = await codeOf(buyer, orderId);
    await t.database.db
      .update(orders)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(orders.id, orderId));
    const res = await handover(seller, orderId, code);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('This sale is already expired');
    expect((await orderRow(orderId))?.stage).toBe('expired');
    expect((await paymentRow(orderId))?.money).toBe('released');
    expect(await productStatus(productId)).toBe('available');
  });

  it('cannot happen before the buyer pays', async () => {
    const buyer = await createAccount(t.app, 'user');
    const orderId = await book(buyer, (await phone()).id);
    const res = await handover(seller, orderId, '123456');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('The buyer has not paid yet');
  });
});

describe('cancelling a paid sale', () => {
  it('by the buyer releases the hold and puts the phone back on sale, for anyone to book again', async () => {
    const { buyer, orderId, productId, intentId } = await paidSale();
    const res = await call(buyer, 'POST', `/api/orders/${orderId}/cancel`);
    expect(res.statusCode).toBe(200);
    expect(await orderRow(orderId)).toMatchObject({ stage: 'cancelled', cancelledBy: 'buyer' });
    expect((await paymentRow(orderId))?.money).toBe('released');
    expect(await intentStatus(intentId)).toBe('canceled');
    expect(await productStatus(productId)).toBe('available');
    // Paying and cancelling is no way to collect a seller's number: the ended sale hides both
    // sides' again (issue 29).
    const ended = (await saleAs(buyer, orderId)).json();
    expect(ended.seller).toMatchObject({ number: null, email: null });
    expect((await saleAs(seller, orderId)).json().buyer).toMatchObject({
      number: null,
      email: null,
    });
    // The same buyer may book it again, and another buyer may buy it.
    await book(buyer, productId);
    const next = await paidSale(productId);
    expect((await orderRow(next.orderId))?.stage).toBe('paid');
  });

  it('by the seller, too; by nobody else; and not twice', async () => {
    const { buyer, orderId } = await paidSale();
    const stranger = await createAccount(t.app, 'user');
    expect((await call(stranger, 'POST', `/api/orders/${orderId}/cancel`)).statusCode).toBe(403);
    expect((await call(otherSeller, 'POST', `/api/orders/${orderId}/cancel`)).statusCode).toBe(403);
    expect((await call(admin, 'POST', `/api/orders/${orderId}/cancel`)).statusCode).toBe(403);
    expect((await call(seller, 'POST', `/api/orders/${orderId}/cancel`)).statusCode).toBe(200);
    expect((await orderRow(orderId))?.cancelledBy).toBe('seller');
    const again = await call(buyer, 'POST', `/api/orders/${orderId}/cancel`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This order is already cancelled');
  });

  it('is refused after the handover, and the captured money stays', async () => {
    const { buyer, orderId } = await completedSale();
    const res = await call(buyer, 'POST', `/api/orders/${orderId}/cancel`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/report a problem/);
    expect((await paymentRow(orderId))?.money).toBe('captured');
  });

  it('of a booked order is the spec’s delete; a seller cannot delete a buyer’s booking', async () => {
    const buyer = await createAccount(t.app, 'user');
    const orderId = await book(buyer, (await phone()).id);
    expect((await call(seller, 'POST', `/api/orders/${orderId}/cancel`)).statusCode).toBe(403);
    expect((await call(buyer, 'POST', `/api/orders/${orderId}/cancel`)).statusCode).toBe(409);
    expect((await call(buyer, 'DELETE', `/api/order?id=${orderId}`)).json()).toEqual({
      deletedCount: 1,
    });
  });

  it('keeps a phone with a sale in progress from being deleted', async () => {
    const { orderId, productId } = await paidSale();
    const res = await call(seller, 'DELETE', `/api/products?id=${productId}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/sale in progress/);
    await call(seller, 'POST', `/api/orders/${orderId}/cancel`);
    expect((await call(seller, 'DELETE', `/api/products?id=${productId}`)).json()).toEqual({
      deletedCount: 1,
    });
  });
});

describe('a hold past its deadline', () => {
  it('expires once: the hold is released, the phone is for sale again, the code no longer works', async () => {
    const { buyer, orderId, productId, intentId } = await paidSale();
    const code = await codeOf(buyer, orderId);
    const later = new Date(Date.now() + 7 * DAY_MS + 60_000);
    const [first, second] = await Promise.all([
      runTimedWork(sales, later),
      runTimedWork(sales, later),
    ]);
    expect((first?.expired ?? 0) + (second?.expired ?? 0)).toBeGreaterThanOrEqual(1);
    expect(await orderRow(orderId)).toMatchObject({ stage: 'expired' });
    expect((await paymentRow(orderId))?.money).toBe('released');
    expect(await intentStatus(intentId)).toBe('canceled');
    expect(await productStatus(productId)).toBe('available');
    const res = await handover(seller, orderId, code);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('This sale is already expired');
  });

  it('is left alone before its deadline', async () => {
    const { orderId } = await paidSale();
    await runTimedWork(sales, new Date(Date.now() + 6 * DAY_MS));
    expect((await orderRow(orderId))?.stage).toBe('paid');
  });
});

describe('money steps the provider could not do at once', () => {
  it('stay decided and are done once by the timed work when the provider answers again', async () => {
    const { buyer, orderId, intentId } = await paidSale();
    const down: PaymentProvider = {
      ...sales.provider,
      createIntent: sales.provider.createIntent.bind(sales.provider),
      retrieve: sales.provider.retrieve.bind(sales.provider),
      capture: async () => {
        throw new Error('card service down');
      },
      cancel: sales.provider.cancel.bind(sales.provider),
      refund: sales.provider.refund.bind(sales.provider),
    };
    const { handOver } = await import('../../src/server/domain/order-process');
    const caller = {
      id: (await orderRow(orderId))?.sellerId as string,
      email: seller.email,
      name: seller.name,
      type: 'seller' as const,
      userStatus: null,
      isAdmin: false,
    };
    await handOver({ ...sales, provider: down }, caller, orderId, await codeOf(buyer, orderId));
    expect((await orderRow(orderId))?.stage).toBe('completed');
    expect((await paymentRow(orderId))?.money).toBe('capturing');
    expect(await intentStatus(intentId)).toBe('requires_capture');

    const done = await runTimedWork(sales);
    expect(done.settled).toBeGreaterThanOrEqual(1);
    expect((await paymentRow(orderId))?.money).toBe('captured');
    expect(await intentStatus(intentId)).toBe('succeeded');
    // A step the provider did but we did not record (a crash between) is recorded on retry.
    await t.database.db
      .update(payments)
      .set({ money: 'capturing' })
      .where(eq(payments.orderId, orderId));
    await runTimedWork(sales);
    expect((await paymentRow(orderId))?.money).toBe('captured');
  });
});

describe('a problem after the handover', () => {
  it('is reported by the buyer once, within seven days, and decided by an admin', async () => {
    const { buyer, orderId, intentId } = await completedSale();
    expect(
      (await call(seller, 'POST', `/api/orders/${orderId}/report`, { reason: 'x' })).statusCode,
    ).toBe(403);
    const res = await call(buyer, 'POST', `/api/orders/${orderId}/report`, {
      reason: 'The phone is locked to another account',
    });
    expect(res.statusCode).toBe(200);
    expect((await orderRow(orderId))?.stage).toBe('disputed');
    expect(
      (await call(buyer, 'POST', `/api/orders/${orderId}/report`, { reason: 'again' })).statusCode,
    ).toBe(409);

    const listed = (await call(admin, 'GET', '/api/disputes')).json();
    const dispute = listed.find((s: { _id: string }) => s._id === orderId);
    expect(dispute).toMatchObject({
      side: 'admin',
      stage: 'disputed',
      actions: ['refund', 'close'],
      dispute: { reason: 'The phone is locked to another account', resolution: null },
    });
    expect(dispute.buyer.number).not.toBeNull();
    expect(dispute.seller.email).toBe(seller.email);
    expect((await call(seller, 'GET', '/api/disputes')).statusCode).toBe(403);
    expect(
      (await call(buyer, 'POST', `/api/disputes/${orderId}`, { decision: 'refund' })).statusCode,
    ).toBe(403);

    expect(
      (await call(admin, 'POST', `/api/disputes/${orderId}`, { decision: 'refund' })).statusCode,
    ).toBe(200);
    expect((await orderRow(orderId))?.stage).toBe('refunded');
    expect((await paymentRow(orderId))?.money).toBe('refunded');
    expect(await intentStatus(intentId)).toBe('refunded');
    const twice = await call(admin, 'POST', `/api/disputes/${orderId}`, { decision: 'refund' });
    expect(twice.statusCode).toBe(409);
  });

  it('closed by an admin leaves the money with the seller and cannot be reported again', async () => {
    const { buyer, orderId } = await completedSale();
    await call(buyer, 'POST', `/api/orders/${orderId}/report`, { reason: 'Scratch not described' });
    expect(
      (await call(admin, 'POST', `/api/disputes/${orderId}`, { decision: 'close' })).statusCode,
    ).toBe(200);
    expect((await orderRow(orderId))?.stage).toBe('completed');
    expect((await paymentRow(orderId))?.money).toBe('captured');
    const again = await call(buyer, 'POST', `/api/orders/${orderId}/report`, { reason: 'again' });
    expect(again.statusCode).toBe(409);
    expect((await saleAs(buyer, orderId)).json().actions).not.toContain('report');
  });

  it('cannot be reported before the handover or after the window', async () => {
    const paid = await paidSale();
    const early = await call(paid.buyer, 'POST', `/api/orders/${paid.orderId}/report`, {
      reason: 'x',
    });
    expect(early.statusCode).toBe(409);
    const { buyer, orderId } = await completedSale();
    await t.database.db
      .update(orders)
      .set({ completedAt: new Date(Date.now() - 8 * DAY_MS) })
      .where(eq(orders.id, orderId));
    const late = await call(buyer, 'POST', `/api/orders/${orderId}/report`, { reason: 'x' });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(/within 7 days/);
    expect((await saleAs(buyer, orderId)).json().actions).toEqual(['rate']);
  });
});

describe('ratings', () => {
  it('each side rates the other once after the handover; the seller’s average shows on their phones', async () => {
    const ratedSeller = await createAccount(t.app, 'seller');
    const { phone: theirPhone } = buyingCalls(() => ({ t, seller: ratedSeller }));
    const p = await theirPhone();
    const listed = async () =>
      (await call(null, 'GET', `/api/category/${p.categoryId}?limit=100`))
        .json()
        .find((x: { _id: string }) => x._id === p.id)?.sellerRating;
    expect(await listed()).toEqual({ average: null, count: 0 });

    const buyer = await createAccount(t.app, 'user');
    const orderId = await book(buyer, p.id);
    expect(
      (await call(buyer, 'POST', `/api/orders/${orderId}/rating`, { stars: 5 })).statusCode,
    ).toBe(409);
    const { clientSecret } = (await intentFor(buyer, orderId)).json();
    await confirmCard(clientSecret, CARD);
    expect(
      (await call(buyer, 'POST', `/api/orders/${orderId}/rating`, { stars: 5 })).statusCode,
    ).toBe(409);
    await handover(ratedSeller, orderId, await codeOf(buyer, orderId));

    for (const stars of [0, 6, 2.5, 'five']) {
      const bad = await call(buyer, 'POST', `/api/orders/${orderId}/rating`, { stars });
      expect(bad.statusCode).toBe(400);
    }
    const stranger = await createAccount(t.app, 'user');
    expect(
      (await call(stranger, 'POST', `/api/orders/${orderId}/rating`, { stars: 1 })).statusCode,
    ).toBe(403);
    expect(
      (
        await call(buyer, 'POST', `/api/orders/${orderId}/rating`, {
          stars: 4,
          comment: 'As described',
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await call(buyer, 'POST', `/api/orders/${orderId}/rating`, { stars: 1 })).statusCode,
    ).toBe(409);
    expect(
      (await call(ratedSeller, 'POST', `/api/orders/${orderId}/rating`, { stars: 5 })).statusCode,
    ).toBe(200);

    const asSeller = (await saleAs(ratedSeller, orderId)).json();
    expect(asSeller.ratings).toEqual({
      byBuyer: { stars: 4, comment: 'As described' },
      bySeller: { stars: 5, comment: '' },
    });
    expect(asSeller.actions).toEqual([]);
    expect(asSeller.seller.rating).toEqual({ average: 4, count: 1 });
    expect(asSeller.buyer.rating).toEqual({ average: 5, count: 1 });
    // The seller's phones still for sale show it; the one sold is no longer listed as available.
    const another = await theirPhone();
    const shown = (await call(null, 'GET', `/api/category/${another.categoryId}?limit=100`))
      .json()
      .find((x: { _id: string }) => x._id === another.id);
    expect(shown.sellerRating).toEqual({ average: 4, count: 1 });
  });
});

describe('a side whose account was deleted', () => {
  it('cannot be rated, and no rating is offered for it', async () => {
    const { buyer, orderId } = await completedSale();
    const [buyerRow] = await t.database.db.select().from(users).where(eq(users.email, buyer.email));
    expect((await call(admin, 'DELETE', `/api/users?id=${buyerRow?.id}`)).statusCode).toBe(200);
    expect((await saleAs(seller, orderId)).json().actions).toEqual([]);
    const res = await call(seller, 'POST', `/api/orders/${orderId}/rating`, { stars: 1 });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('The other side of this sale no longer has an account');
  });
});

describe('the stages in the spec’s lists', () => {
  it('keep status paid for every paid order, with the stage added', async () => {
    const { buyer, orderId } = await completedSale();
    const mine = (await call(buyer, 'GET', `/api/order?email=${buyer.email}`)).json();
    expect(mine.find((o: { _id: string }) => o._id === orderId)).toMatchObject({
      status: 'paid',
      stage: 'completed',
      soldElsewhere: false,
      price: PRICE_CENTS / 100,
    });
    // A completed order is a financial record: the spec's delete refuses it.
    const del = await call(buyer, 'DELETE', `/api/order?id=${orderId}`);
    expect(del.statusCode).toBe(409);
  });
});
