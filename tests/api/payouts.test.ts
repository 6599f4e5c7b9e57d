/**
 * Sellers get paid (issue 30): the fee on a completed sale, the seller's pending, frozen and
 * available money, payouts to the test bank (paid, failed, once per period), a report freezing
 * the share, refunds before and after the payout, the password and hold on a payout account
 * change, the admin's figures, and the ledger check after each path.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ledgerEntries,
  ledgerTransactions,
  notifications,
  outboxMails,
  paymentIntents,
  payments,
} from '../../src/server/db/schema';
import { checkLedger } from '../../src/server/ledger/check';
import { sellerBalances } from '../../src/server/ledger/ledger';
import { EmbeddedPaymentProvider } from '../../src/server/payments/embedded-processor';
import { type PayoutWork, runPayoutWork } from '../../src/server/payouts/payouts';
import { TestBankPayouts } from '../../src/server/payouts/test-bank';
import { type Account, createAccount, createAdmin } from '../helpers/accounts';
import { buyingCalls, PRICE_CENTS } from '../helpers/buying';
import { daysToCome } from '../helpers/payout-days';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const CARD = { number: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' };
// 5 % of $450.50 is $22.525: half up to the cent, $22.53.
const FEE_CENTS = 2_253;
const NET_CENTS = PRICE_CENTS - FEE_CENTS;
const PAID = { routingNumber: '110000000', accountNumber: '000123456789' };
const CLOSED = { routingNumber: '110000000', accountNumber: '000111111113' };

let t: TestApp;
let seller: Account;
let admin: Account;
let work: PayoutWork;
const { phone, intentFor, confirmCard } = buyingCalls(() => ({ t, seller }));

beforeAll(async () => {
  // The seller's share is theirs to pay out at once after the handover (FUNDS_HOLD_HOURS=0): a
  // report may then come after the payout, as with a short hold in production.
  t = await buildTestApp({ FUNDS_HOLD_HOURS: '0' });
  seller = await createAccount(t.app, 'seller');
  admin = await createAdmin(t.app);
  work = { db: t.database.db, provider: new TestBankPayouts(t.database.db), schedule: 'daily' };
});
afterAll(() => t.close());

/** Days to come at noon UTC, each its own payout period. */
const nextDay = daysToCome();

const call = (who: Account | null, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    ...(who ? { headers: who.bearer } : {}),
    ...(payload ? { payload } : {}),
  });

/** A phone of `owner`'s sold and handed over: the order's id and its buyer. */
async function completedSale(owner: Account = seller) {
  const buyer = await createAccount(t.app, 'user');
  const product =
    owner === seller ? await phone() : await buyingCalls(() => ({ t, seller: owner })).phone();
  const booked = await call(buyer, 'POST', '/api/order', {
    productId: product.id,
    location: 'City Library',
    number: '+1 303 555 0142',
  });
  const orderId = booked.json().insertedId as string;
  const { clientSecret } = (await intentFor(buyer, orderId)).json();
  expect((await confirmCard(clientSecret, CARD)).json().paymentIntent.status).toBe(
    'requires_capture',
  );
  const code = (await call(buyer, 'GET', `/api/orders/${orderId}`)).json().handoverCode;
  expect((await call(owner, 'POST', `/api/orders/${orderId}/handover`, { code })).statusCode).toBe(
    200,
  );
  return { orderId, buyer };
}

const summary = async (who: Account) => (await call(who, 'GET', '/api/payouts')).json();
const setAccount = (who: Account, bank: typeof PAID, password = who.password) =>
  call(who, 'PUT', '/api/payouts/account', { ...bank, password });
const books = () =>
  checkLedger(t.database.db, { provider: new EmbeddedPaymentProvider(t.database.db) });

describe('a completed sale', () => {
  it('takes the fee, rounded half up to the cent, and leaves the net pending for the seller', async () => {
    const other = await createAccount(t.app, 'seller');
    const { orderId, buyer } = await completedSale(other);
    const asSeller = (await call(other, 'GET', `/api/orders/${orderId}`)).json();
    expect(asSeller).toMatchObject({
      fee: FEE_CENTS / 100,
      net: NET_CENTS / 100,
      sellerMoney: 'pending',
    });
    // The buyer paid the price; the fee is the seller's business.
    const asBuyer = (await call(buyer, 'GET', `/api/orders/${orderId}`)).json();
    expect(asBuyer).toMatchObject({ fee: null, net: null, sellerMoney: null });
    const kinds = await t.database.db
      .select({ kind: ledgerTransactions.kind })
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.orderId, orderId));
    expect(kinds.map((k) => k.kind).sort()).toEqual(['capture', 'hold']);
    expect(await sellerBalances(t.database.db, other.id)).toMatchObject({ pending: NET_CENTS });
    expect((await call(other, 'GET', '/api/sales')).json()[0]).toMatchObject({
      price: PRICE_CENTS / 100,
      fee: FEE_CENTS / 100,
      net: NET_CENTS / 100,
    });
    expect(await books()).toEqual([]);
  });
});

describe('payouts to the test bank', () => {
  it('wait for an account: the balance is kept and the seller is told', async () => {
    const other = await createAccount(t.app, 'seller');
    await completedSale(other);
    await runPayoutWork(work, nextDay());
    const mine = await summary(other);
    expect(mine).toMatchObject({
      available: NET_CENTS / 100,
      account: null,
      nextPayoutAt: null,
      payouts: [],
    });
    expect(await books()).toEqual([]);
  });

  it('need the password again, refuse numbers that are not the test bank’s, and change nothing then', async () => {
    const other = await createAccount(t.app, 'seller');
    const wrong = await setAccount(other, PAID, 'not the password at all');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('That password is not right.');
    const routing = await setAccount(other, { ...PAID, routingNumber: '021000021' });
    expect(routing.statusCode).toBe(400);
    expect(routing.json().message).toMatch(/^routingNumber/);
    const account = await setAccount(other, { ...PAID, accountNumber: '12345678' });
    expect(account.statusCode).toBe(400);
    expect(account.json().message).toMatch(/^accountNumber/);
    expect((await summary(other)).account).toBeNull();
    // A buyer has no payouts; an admin's account is no seller's either.
    const buyer = await createAccount(t.app, 'user');
    expect((await setAccount(buyer, PAID)).statusCode).toBe(403);
    expect((await call(buyer, 'GET', '/api/payouts')).statusCode).toBe(403);
  });

  it('let a password be tried five times in 15 minutes, then refuse even the right one', async () => {
    const other = await createAccount(t.app, 'seller');
    for (let i = 0; i < 5; i++)
      expect((await setAccount(other, PAID, `wrong password ${i}`)).statusCode).toBe(400);
    const sixth = await setAccount(other, PAID);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().message).toMatch(/Too many tries of the password/);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(60);
    expect((await summary(other)).account).toBeNull();
  });

  it('pay the available balance once a period, with its sales, and book it', async () => {
    const other = await createAccount(t.app, 'seller');
    const { orderId } = await completedSale(other);
    const added = await setAccount(other, PAID);
    expect(added.statusCode).toBe(200);
    expect(added.json()).toMatchObject({
      kind: 'bank',
      label: 'Bank account •••• 6789',
      status: 'active',
      payoutsHeldUntil: null,
    });
    const mail = await t.database.db
      .select()
      .from(outboxMails)
      .where(eq(outboxMails.toAddress, other.email));
    expect(mail.map((m) => m.subject)).toContain('A payout account was added');
    const today = nextDay();
    expect((await runPayoutWork(work, today)).sent).toBe(1);
    const mine = await summary(other);
    expect(mine).toMatchObject({ available: 0, pending: 0, paidOut: NET_CENTS / 100, sending: 0 });
    expect(mine.payouts).toEqual([
      expect.objectContaining({
        amount: NET_CENTS / 100,
        status: 'paid',
        failureReason: null,
        sales: [expect.objectContaining({ orderId, net: NET_CENTS / 100 })],
      }),
    ]);
    expect((await call(other, 'GET', `/api/orders/${orderId}`)).json().sellerMoney).toBe('paid');
    // The same money is not paid twice: again this period, or the next with nothing new.
    expect((await runPayoutWork(work, today)).started).toBe(0);
    expect((await runPayoutWork(work, nextDay())).started).toBe(0);
    // A second sale is the next period's payout.
    await completedSale(other);
    expect((await runPayoutWork(work, nextDay())).sent).toBe(1);
    expect((await summary(other)).paidOut).toBe((2 * NET_CENTS) / 100);
    const told = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, other.id));
    expect(told.filter((n) => n.kind === 'payout')).toHaveLength(2);
    expect(await books()).toEqual([]);
  });

  it('that fail keep the reason and give the money back; a new account holds payouts a day', async () => {
    const other = await createAccount(t.app, 'seller');
    await completedSale(other);
    expect((await setAccount(other, CLOSED)).statusCode).toBe(200);
    // Minute-long periods: what holds the payout below is the account's hold, not the period.
    const minutely = { ...work, schedule: '60s' };
    await runPayoutWork(minutely, new Date());
    const failed = await summary(other);
    expect(failed.payouts[0]).toMatchObject({
      status: 'failed',
      failureReason: 'The bank account has been closed',
    });
    expect(failed).toMatchObject({ available: NET_CENTS / 100, paidOut: 0, nextPayoutAt: null });
    // The same refusal is not asked for again every period: payouts wait for another account.
    expect((await runPayoutWork(minutely, new Date(Date.now() + 5 * 60_000))).started).toBe(0);
    const changed = await setAccount(other, PAID);
    expect(changed.statusCode).toBe(200);
    const heldUntil = new Date(changed.json().payoutsHeldUntil).getTime();
    expect(heldUntil - Date.now()).toBeGreaterThan(23 * 60 * 60 * 1000);
    const mail = await t.database.db
      .select()
      .from(outboxMails)
      .where(eq(outboxMails.toAddress, other.email));
    expect(mail.map((m) => m.subject)).toContain('Your payout account was changed');
    expect((await runPayoutWork(minutely, new Date(heldUntil - 60_000))).started).toBe(0);
    expect((await summary(other)).paidOut).toBe(0);
    await runPayoutWork(minutely, new Date(heldUntil + 60_000));
    expect((await summary(other)).paidOut).toBe(NET_CENTS / 100);
    expect(await books()).toEqual([]);
  });
});

describe('a report after the handover', () => {
  const report = (buyer: Account, orderId: string) =>
    call(buyer, 'POST', `/api/orders/${orderId}/report`, { reason: 'The screen is cracked' });
  const decide = (orderId: string, decision: 'refund' | 'close') =>
    call(admin, 'POST', `/api/disputes/${orderId}`, { decision });

  it('freezes the seller’s share; closed, it is paid out', async () => {
    const other = await createAccount(t.app, 'seller');
    await setAccount(other, PAID);
    const hold = { ...work };
    // The share is still pending when the buyer reports (no round ran since the handover).
    const { orderId, buyer } = await completedSale(other);
    expect((await report(buyer, orderId)).statusCode).toBe(200);
    await runPayoutWork(hold, nextDay());
    expect(await summary(other)).toMatchObject({
      frozen: NET_CENTS / 100,
      available: 0,
      paidOut: 0,
    });
    expect((await decide(orderId, 'close')).statusCode).toBe(200);
    await runPayoutWork(work, nextDay());
    expect(await summary(other)).toMatchObject({ frozen: 0, paidOut: NET_CENTS / 100 });
    expect(await books()).toEqual([]);
  });

  it('refunded before the payout takes the share and the fee back to the buyer', async () => {
    const other = await createAccount(t.app, 'seller');
    await setAccount(other, PAID);
    const { orderId, buyer } = await completedSale(other);
    await report(buyer, orderId);
    expect((await decide(orderId, 'refund')).statusCode).toBe(200);
    await runPayoutWork(work, nextDay());
    expect(await summary(other)).toMatchObject({
      frozen: 0,
      available: 0,
      pending: 0,
      paidOut: 0,
      payouts: [],
    });
    const [payment] = await t.database.db
      .select()
      .from(payments)
      .where(eq(payments.orderId, orderId));
    expect(payment?.money).toBe('refunded');
    const [intent] = await t.database.db
      .select()
      .from(paymentIntents)
      .where(eq(paymentIntents.orderId, orderId));
    expect(intent?.status).toBe('refunded');
    expect((await call(other, 'GET', `/api/orders/${orderId}`)).json().sellerMoney).toBe(
      'refunded',
    );
    expect(await books()).toEqual([]);
  });

  it('refunded after the payout leaves a negative balance, recovered from the next sale', async () => {
    const other = await createAccount(t.app, 'seller');
    await setAccount(other, PAID);
    const { orderId, buyer } = await completedSale(other);
    await runPayoutWork(work, nextDay());
    expect((await summary(other)).paidOut).toBe(NET_CENTS / 100);
    expect((await report(buyer, orderId)).statusCode).toBe(200);
    expect((await decide(orderId, 'refund')).statusCode).toBe(200);
    expect(await summary(other)).toMatchObject({
      available: -NET_CENTS / 100,
      paidOut: NET_CENTS / 100,
    });
    // Nothing is paid out while the balance is negative...
    expect((await runPayoutWork(work, nextDay())).started).toBe(0);
    // ...and the next sale makes it good first.
    await completedSale(other);
    await completedSale(other);
    await runPayoutWork(work, nextDay());
    const after = await summary(other);
    expect(after.payouts[0]).toMatchObject({ status: 'paid', amount: NET_CENTS / 100 });
    expect(after).toMatchObject({ available: 0, paidOut: (2 * NET_CENTS) / 100 });
    expect(await books()).toEqual([]);
  });
});

describe('the admin’s figures', () => {
  it('show volume, fees, refunds and payouts by day, and as CSV; to nobody else', async () => {
    const report = (await call(admin, 'GET', '/api/finance?days=7')).json();
    expect(report.days).toHaveLength(7);
    const today = report.days.at(-1);
    expect(today.sales).toBeGreaterThan(0);
    expect(today.volume).toBeCloseTo((today.sales * PRICE_CENTS) / 100, 2);
    expect(today.refunds).toBeGreaterThan(0);
    const csv = await call(admin, 'GET', '/api/finance.csv?days=7');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.body.split('\r\n')[0]).toBe('day,sales,volume,fees,refunds,paid_out,failed_payouts');
    expect(csv.body.trim().split('\r\n')).toHaveLength(8);
    expect((await call(seller, 'GET', '/api/finance')).statusCode).toBe(403);
    expect((await call(null, 'GET', '/api/finance.csv')).statusCode).toBe(401);
    expect((await call(admin, 'GET', '/api/finance?days=0')).statusCode).toBe(400);
  });
});

describe('the ledger', () => {
  it('refuses an entry changed or deleted, and a transaction that does not balance', async () => {
    const [entry] = await t.database.db.select().from(ledgerEntries).limit(1);
    expect(entry).toBeDefined();
    await expect(
      t.database.db
        .update(ledgerEntries)
        .set({ amountCents: 1 })
        .where(eq(ledgerEntries.seq, entry?.seq ?? 0)),
    ).rejects.toThrow();
    await expect(
      t.database.db.delete(ledgerEntries).where(eq(ledgerEntries.seq, entry?.seq ?? 0)),
    ).rejects.toThrow();
    await expect(
      t.database.db.transaction(async (tx) => {
        await tx.insert(ledgerTransactions).values({ key: 'test:unbalanced', kind: 'hold' });
        await tx
          .insert(ledgerEntries)
          .values({ transactionKey: 'test:unbalanced', account: 'cards', amountCents: 5 });
      }),
    ).rejects.toThrow();
    expect(await books()).toEqual([]);
  });
});
