/**
 * Notifications (issue 20, decision 027): each event of a sale, a wish list or an account makes
 * exactly one notification for each person it concerns, mailed through a real SMTP server unless
 * that person turned the kind off; the bell's count, reading, the settings and the mails'
 * unsubscribe links.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema';
import { unsubscribeKey } from '../../src/server/repositories/notifications';
import { type Account, createAccount, createAdmin } from '../helpers/accounts';
import { buyingCalls } from '../helpers/buying';
import { editOf } from '../helpers/factories';
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const CARD = { number: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' };
let smtp: TestSmtpServer;
let t: TestApp;
let seller: Account;
let admin: Account;
const { phone, intentFor, confirmCard, recordCall } = buyingCalls(() => ({ t, seller }));

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await buildTestApp({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Phone Market <market@test.example>',
  });
  seller = await createAccount(t.app, 'seller');
  admin = await createAdmin(t.app);
  await settle();
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** Waits for mail written so far to be handed to the SMTP server, then forgets the welcomes. */
async function settle() {
  await t.app.outbox.deliver();
  await t.app.outbox.idle();
  smtp.received.splice(0);
}

const call = (who: Account | null, method: string, url: string, payload?: object) =>
  t.app.inject({
    method: method as 'GET',
    url,
    ...(who ? { headers: who.bearer } : {}),
    ...(payload ? { payload } : {}),
  });

const noticesOf = async (who: Account) => {
  const res = await call(who, 'GET', '/api/notifications?limit=100');
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { _id: string; kind: string; text: string; link: string; read: boolean }[];
};

/** The List-Unsubscribe header as the mail carried it. */
const unsubscribeHeader = (mail: ReceivedMail) =>
  mail.headerLines
    .find((h) => h.key === 'list-unsubscribe')
    ?.line.replace(/^List-Unsubscribe:\s*/i, '') as string;

const recordOf = async (who: Account) =>
  (
    await t.database.db.select().from(users).where(eq(users.email, who.email))
  )[0] as typeof users.$inferSelect;

const unread = async (who: Account) =>
  (await call(who, 'GET', '/api/notifications/unread')).json().count as number;

async function book(buyer: Account, productId: string): Promise<string> {
  const res = await call(buyer, 'POST', '/api/order', {
    productId,
    location: 'City Library',
    number: '+1 303 555 0142',
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().insertedId;
}

async function pay(buyer: Account, orderId: string) {
  const { clientSecret } = (await intentFor(buyer, orderId)).json();
  const intentId = (await confirmCard(clientSecret, CARD)).json().paymentIntent.id;
  expect((await recordCall(buyer, intentId, orderId)).statusCode).toBe(200);
}

const wish = async (who: Account, productId: string) =>
  expect((await call(who, 'POST', '/api/wishlist', { productId })).statusCode).toBe(200);

describe('a sale tells each side what it needs to know, once', () => {
  it('booking, payment, handover: the seller, the buyer and the other wishers', async () => {
    const [buyer, wisher] = [
      await createAccount(t.app, 'user'),
      await createAccount(t.app, 'user'),
    ];
    const product = await phone();
    await wish(buyer, product.id);
    await wish(wisher, product.id);
    await settle();
    const before = (await noticesOf(seller)).length;

    const orderId = await book(buyer, product.id);
    const afterBooking = await noticesOf(seller);
    expect(afterBooking).toHaveLength(before + 1);
    expect(afterBooking[0]).toMatchObject({
      kind: 'booking',
      link: '/dashboard/mysales',
      read: false,
    });
    expect(afterBooking[0]?.text).toContain(product.modelName);
    const booked = await smtp.next(seller.email);
    expect(booked.subject).toBe('A buyer booked your phone');
    // The site's own address in the links, as the server knows it (PUBLIC_URL, or local).
    const site = `http://localhost:${t.app.config.PORT}`;
    expect(booked.text).toContain(`${site}/dashboard/mysales`);
    const { id, mailKey } = await recordOf(seller);
    expect(unsubscribeHeader(booked)).toBe(
      `<${site}/api/mail-settings/unsubscribe?u=${id}&kind=booking&key=${unsubscribeKey(mailKey, 'booking')}>`,
    );

    await pay(buyer, orderId);
    const paid = (await noticesOf(seller))[0];
    expect(paid).toMatchObject({ kind: 'payment', link: `/dashboard/orders/${orderId}` });
    expect((await smtp.next(seller.email)).subject).toBe(
      'A buyer paid: time to hand over the phone',
    );
    // The other wisher learns it is gone; the buyer, who wished for it too, is not told.
    expect((await noticesOf(wisher)).map((n) => n.kind)).toEqual(['wishlist-sold']);
    expect(await noticesOf(buyer)).toEqual([]);

    const sale = (await call(buyer, 'GET', `/api/orders/${orderId}`)).json();
    const res = await call(seller, 'POST', `/api/orders/${orderId}/handover`, {
      code: sale.handoverCode,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await noticesOf(buyer)).map((n) => n.kind)).toEqual(['handover']);
    // The net after the 5% fee: $450.50 less $22.53 (issue 30).
    expect((await noticesOf(seller))[0]?.text).toContain(
      '$427.97 (the price less the $22.53 fee) is yours',
    );
    await settle();
  });

  it('a cancelled sale tells the other side, and a cancelled booking the seller', async () => {
    const buyer = await createAccount(t.app, 'user');
    const sold = await phone();
    const orderId = await book(buyer, sold.id);
    await pay(buyer, orderId);
    await settle();
    expect((await call(buyer, 'POST', `/api/orders/${orderId}/cancel`)).statusCode).toBe(200);
    expect((await noticesOf(seller))[0]).toMatchObject({
      kind: 'cancel',
      link: `/dashboard/orders/${orderId}`,
    });
    expect(await noticesOf(buyer)).toEqual([]);

    const booked = await phone();
    const bookingId = await book(buyer, booked.id);
    expect((await call(buyer, 'DELETE', `/api/order?id=${bookingId}`)).statusCode).toBe(200);
    const [latest] = await noticesOf(seller);
    expect(latest?.kind).toBe('cancel');
    expect(latest?.text).toContain('cancelled their booking');
    await settle();
  });
});

describe('a wish list', () => {
  it('is told of a lower price, not of a higher one', async () => {
    const wisher = await createAccount(t.app, 'user');
    const product = await phone();
    await wish(wisher, product.id);
    const edit = (resellPrice: number) =>
      call(seller, 'PUT', `/api/products/${product.id}`, editOf(product, resellPrice));
    expect((await edit(500)).statusCode).toBe(200);
    expect(await noticesOf(wisher)).toEqual([]);
    expect((await edit(399)).statusCode).toBe(200);
    const notices = await noticesOf(wisher);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ kind: 'price-drop', link: `/product/${product.id}` });
    expect(notices[0]?.text).toContain('now $399, down from $500');
    await settle();
  });
});

describe('an account', () => {
  it('is told once that it is verified', async () => {
    const newSeller = await createAccount(t.app, 'seller');
    for (let i = 0; i < 2; i++)
      expect(
        (await call(admin, 'PUT', `/api/users/${encodeURIComponent(newSeller.email)}`)).statusCode,
      ).toBe(200);
    expect((await noticesOf(newSeller)).map((n) => n.kind)).toEqual(['seller-verified']);
    await settle();
  });
});

describe('the bell', () => {
  it('counts unread notifications and clears those read, each person their own', async () => {
    const wisher = await createAccount(t.app, 'user');
    const other = await createAccount(t.app, 'user');
    for (let i = 0; i < 3; i++) {
      const product = await phone();
      await wish(wisher, product.id);
      await wish(other, product.id);
      const buyer = await createAccount(t.app, 'user');
      await pay(buyer, await book(buyer, product.id));
    }
    expect(await unread(wisher)).toBe(3);
    const [first] = await noticesOf(wisher);
    // Another person's ids are not theirs to read.
    const foreign = await call(other, 'POST', '/api/notifications/read', {
      ids: [first?._id],
    });
    expect(foreign.json().modifiedCount).toBe(0);
    expect(
      (await call(wisher, 'POST', '/api/notifications/read', { ids: [first?._id] })).json(),
    ).toEqual({ modifiedCount: 1 });
    expect(await unread(wisher)).toBe(2);
    expect((await call(wisher, 'POST', '/api/notifications/read', {})).json()).toEqual({
      modifiedCount: 2,
    });
    expect(await unread(wisher)).toBe(0);
    expect(await unread(other)).toBe(3);
    await settle();
  });

  it('is for signed-in people only', async () => {
    expect((await call(null, 'GET', '/api/notifications')).statusCode).toBe(401);
    expect((await call(null, 'GET', '/api/notifications/unread')).statusCode).toBe(401);
  });
});

describe('mail settings', () => {
  it('a kind turned off still shows in the bell but is not mailed', async () => {
    const wisher = await createAccount(t.app, 'user');
    await settle();
    const saved = await call(wisher, 'PUT', '/api/mail-settings', { off: ['wishlist-sold'] });
    expect(saved.json()).toEqual({ off: ['wishlist-sold'] });
    expect((await call(wisher, 'GET', '/api/mail-settings')).json()).toEqual({
      off: ['wishlist-sold'],
    });
    const product = await phone();
    await wish(wisher, product.id);
    const buyer = await createAccount(t.app, 'user');
    await pay(buyer, await book(buyer, product.id));
    expect((await noticesOf(wisher)).map((n) => n.kind)).toEqual(['wishlist-sold']);
    await t.app.outbox.deliver();
    await expect(smtp.next(wisher.email, 500)).rejects.toThrow(/no mail/);
    await settle();
  });

  it("a mail's unsubscribe link turns its kind off without signing in; a wrong key changes nothing", async () => {
    const wisher = await createAccount(t.app, 'user');
    await settle();
    const product = await phone();
    await wish(wisher, product.id);
    const buyer = await createAccount(t.app, 'user');
    await pay(buyer, await book(buyer, product.id));
    const mail = await smtp.next(wisher.email);
    const link = new URL(unsubscribeHeader(mail).replace(/^<|>$/g, ''));
    const { mailKey } = await recordOf(wisher);
    expect(link.searchParams.get('key')).toBe(unsubscribeKey(mailKey, 'wishlist-sold'));

    // A wrong key, the account's own mail key, and this link's key with another kind: refused.
    for (const [name, value] of [
      ['key', '0'.repeat(32)],
      ['key', mailKey],
      ['kind', 'payment'],
      ['kind', 'message'],
    ] as const) {
      const wrong = new URLSearchParams(link.search);
      wrong.set(name, value);
      const refused = await t.app.inject({ method: 'POST', url: `${link.pathname}?${wrong}` });
      expect(refused.statusCode, `${name}=${value}`).toBe(404);
      expect(refused.json()).toEqual({ message: 'This unsubscribe link is not valid' });
    }
    expect((await call(wisher, 'GET', '/api/mail-settings')).json()).toEqual({ off: [] });

    const res = await t.app.inject({
      method: 'POST',
      url: `${link.pathname}${link.search}`,
      payload: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await call(wisher, 'GET', '/api/mail-settings')).json()).toEqual({
      off: ['wishlist-sold'],
    });
    await settle();
  });

  it('refuses a kind that does not exist, and changes nothing', async () => {
    const someone = await createAccount(t.app, 'user');
    const res = await call(someone, 'PUT', '/api/mail-settings', { off: ['everything'] });
    expect(res.statusCode).toBe(400);
    expect((await call(someone, 'GET', '/api/mail-settings')).json()).toEqual({ off: [] });
  });
});
