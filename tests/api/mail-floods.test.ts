/**
 * No flood through us (issue 29, decision 037): a loop of bookings and deletes, or a price
 * bounced up and down, fills the bell but not the inbox; bookings and their deletes are limited
 * per buyer; and the mails that matter still go out during a flood.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications, outboxMails, users } from '../../src/server/db/schema';
import type { NotificationKind } from '../../src/shared/notifications';
import { type Account, createAccount, SAME_SITE } from '../helpers/accounts';
import { buyingCalls } from '../helpers/buying';
import { editOf } from '../helpers/factories';
import { buildTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
let seller: Account;
const { phone } = buyingCalls(() => ({ t, seller }));

beforeAll(async () => {
  t = await buildTestApp();
  seller = await createAccount(t.app, 'seller');
});
afterAll(() => t.close());

const call = (who: Account, method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who.bearer, ...(payload ? { payload } : {}) });

const book = (buyer: Account, productId: string) =>
  call(buyer, 'POST', '/api/order', { productId, location: 'City Library', number: '1' });

/** The mail of `kind` written for `who` (what the outbox sends). */
const mailsTo = async (who: Account, kind: string) =>
  t.database.db
    .select()
    .from(outboxMails)
    .where(and(eq(outboxMails.toAddress, who.email), eq(outboxMails.kind, kind)));

const bellOf = async (who: Account, kind: NotificationKind) => {
  const [user] = await t.database.db.select().from(users).where(eq(users.email, who.email));
  return t.database.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, user?.id ?? ''), eq(notifications.kind, kind)));
};

describe('a buyer booking and deleting in a loop', () => {
  it("puts every round in the seller's bell, at most five mails of each kind an hour in the inbox, and is refused past ten a minute", async () => {
    const buyer = await createAccount(t.app, 'user');
    const product = await phone();
    for (let i = 0; i < 10; i++) {
      const booked = await book(buyer, product.id);
      expect(booked.statusCode, booked.body).toBe(200);
      const deleted = await call(buyer, 'DELETE', `/api/order?id=${booked.json().insertedId}`);
      expect(deleted.statusCode, deleted.body).toBe(200);
    }
    expect(await bellOf(seller, 'booking')).toHaveLength(10);
    expect(await bellOf(seller, 'cancel')).toHaveLength(10);
    const booked = await mailsTo(seller, 'booking');
    expect(booked).toHaveLength(5);
    expect(await mailsTo(seller, 'cancel')).toHaveLength(5);
    // The mail that uses up the allowance says where the rest are.
    expect(
      booked.filter((m) => m.textBody.includes('at most 5 of these mails an hour')),
    ).toHaveLength(1);

    // The eleventh booking (and delete) in the minute is refused and does nothing.
    const refused = await book(buyer, product.id);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^Too many requests, please try again in \d+/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const refusedDelete = await call(buyer, 'DELETE', `/api/order?id=${crypto.randomUUID()}`);
    expect(refusedDelete.statusCode).toBe(429);
    expect(await bellOf(seller, 'booking')).toHaveLength(10);

    // Another buyer has an allowance of their own; the seller's bell still counts it.
    const other = await createAccount(t.app, 'user');
    expect((await book(other, product.id)).statusCode).toBe(200);
    expect(await bellOf(seller, 'booking')).toHaveLength(11);
    expect(await mailsTo(seller, 'booking')).toHaveLength(5);

    // A forgotten password is mailed all the same: the flood filled another kind's allowance.
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      headers: SAME_SITE,
      payload: { email: seller.email, redirectTo: '/reset-password' },
    });
    expect(reset.statusCode).toBe(200);
    // The reset's work runs after its answer (decision 036), then its mail goes out.
    await t.app.afterAnswer.idle();
    await t.app.outbox.idle();
    expect(await mailsTo(seller, 'reset-password')).toHaveLength(1);
  });
});

describe('a price bounced up and down', () => {
  it('mails a wish-lister once a day per phone; the bell tells of every drop', async () => {
    const wisher = await createAccount(t.app, 'user');
    const [bounced, other] = [await phone(), await phone()];
    for (const product of [bounced, other])
      expect(
        (await call(wisher, 'POST', '/api/wishlist', { productId: product.id })).statusCode,
      ).toBe(200);
    const price = (product: typeof bounced, resellPrice: number) =>
      call(seller, 'PUT', `/api/products/${product.id}`, editOf(product, resellPrice));
    for (const resellPrice of [500, 399, 500, 399, 500, 399])
      expect((await price(bounced, resellPrice)).statusCode).toBe(200);
    expect(await bellOf(wisher, 'price-drop')).toHaveLength(3);
    expect(await mailsTo(wisher, 'price-drop')).toHaveLength(1);

    // Another phone's drop is news of its own.
    expect((await price(other, 300)).statusCode).toBe(200);
    expect(await mailsTo(wisher, 'price-drop')).toHaveLength(2);

    // A day later the bounced phone's next drop is mailed again.
    const [user] = await t.database.db.select().from(users).where(eq(users.email, wisher.email));
    await t.database.db
      .update(notifications)
      .set({ createdAt: sql`${notifications.createdAt} - interval '25 hours'` })
      .where(eq(notifications.userId, user?.id ?? ''));
    await t.database.db
      .update(outboxMails)
      .set({ createdAt: sql`${outboxMails.createdAt} - interval '25 hours'` })
      .where(eq(outboxMails.toAddress, wisher.email));
    expect((await price(bounced, 500)).statusCode).toBe(200);
    expect((await price(bounced, 350)).statusCode).toBe(200);
    expect(await bellOf(wisher, 'price-drop')).toHaveLength(5);
    expect(await mailsTo(wisher, 'price-drop')).toHaveLength(3);
  });
});
