/**
 * Messages between a buyer and a seller (issue 20, decision 028): who may read and write what,
 * contact details hidden before a payment and not after, limits, reports and the admin.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxMails, products, users } from '../../src/server/db/schema';
import { HIDDEN_CONTACT, MESSAGE_MAX_LENGTH } from '../../src/shared/messages';
import { type Account, createAccount, createAdmin } from '../helpers/accounts';
import { buyingCalls } from '../helpers/buying';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const CARD = { number: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' };
let t: TestApp;
let seller: Account;
let buyer: Account;
let stranger: Account;
let admin: Account;
const { phone, intentFor, confirmCard, recordCall } = buyingCalls(() => ({ t, seller }));

beforeAll(async () => {
  t = await buildTestApp();
  seller = await createAccount(t.app, 'seller');
  buyer = await createAccount(t.app, 'user');
  stranger = await createAccount(t.app, 'user');
  admin = await createAdmin(t.app);
});
afterAll(() => t?.close());

const call = (who: Account | null, method: string, url: string, payload?: object) =>
  t.app.inject({
    method: method as 'GET',
    url,
    ...(who ? { headers: who.bearer } : {}),
    ...(payload ? { payload } : {}),
  });

async function start(who: Account, productId: string, body: string) {
  const res = await call(who, 'POST', '/api/conversations', { productId, body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { conversationId: string; hidden: boolean };
}

const read = async (who: Account, id: string) => {
  const res = await call(who, 'GET', `/api/conversations/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

const listOf = async (who: Account) => (await call(who, 'GET', '/api/conversations')).json();

describe('a conversation', () => {
  it('a buyer asks, the seller is told, reads and answers; one conversation per phone', async () => {
    const product = await phone();
    const { conversationId, hidden } = await start(buyer, product.id, 'Is it unlocked?');
    expect(hidden).toBe(false);
    const [listed] = await listOf(seller);
    expect(listed).toMatchObject({
      _id: conversationId,
      productName: product.modelName,
      side: 'seller',
      counterpartName: buyer.name,
      unread: true,
      lastMessage: { body: 'Is it unlocked?', mine: false },
    });
    const notices = (await call(seller, 'GET', '/api/notifications')).json();
    expect(notices[0]).toMatchObject({
      kind: 'message',
      link: `/dashboard/messages/${conversationId}`,
    });

    const thread = await read(seller, conversationId);
    expect(thread.messages.map((m: { body: string }) => m.body)).toEqual(['Is it unlocked?']);
    expect((await listOf(seller))[0].unread).toBe(false);

    const reply = await call(seller, 'POST', `/api/conversations/${conversationId}/messages`, {
      body: 'Yes, for every carrier.',
    });
    expect(reply.statusCode, reply.body).toBe(200);
    expect((await listOf(buyer))[0]).toMatchObject({ unread: true, side: 'buyer' });

    // Asking again about the same phone goes on in the same conversation.
    const again = await start(buyer, product.id, 'Can we meet at 6?');
    expect(again.conversationId).toBe(conversationId);
    expect((await read(buyer, conversationId)).messages).toHaveLength(3);
  });

  it('hides contact details until the buyer pays, and not after', async () => {
    const product = await phone();
    const { conversationId, hidden } = await start(
      buyer,
      product.id,
      'Call me on +1 303 555 0142 or bob@example.com',
    );
    expect(hidden).toBe(true);
    const seen = await read(seller, conversationId);
    expect(seen.paid).toBe(false);
    expect(seen.messages[0]).toMatchObject({
      body: `Call me on ${HIDDEN_CONTACT} or ${HIDDEN_CONTACT}`,
      hidden: true,
    });
    // Nothing of the number is kept anywhere a leak could show it.
    // (Not just '555': an id or a time may hold those digits by chance.)
    const stored = JSON.stringify(await read(buyer, conversationId));
    expect(stored).not.toMatch(/303\D?555\D?0142/);
    expect(stored).not.toContain('bob@example.com');

    const booked = await call(buyer, 'POST', '/api/order', {
      productId: product.id,
      location: 'Library',
      number: '+1 303 555 0100',
    });
    const orderId = booked.json().insertedId;
    const { clientSecret } = (await intentFor(buyer, orderId)).json();
    const intentId = (await confirmCard(clientSecret, CARD)).json().paymentIntent.id;
    expect((await recordCall(buyer, intentId, orderId)).statusCode).toBe(200);

    const after = await call(seller, 'POST', `/api/conversations/${conversationId}/messages`, {
      body: 'Great, my number is 303 555 0199',
    });
    expect(after.json().hidden).toBe(false);
    const paid = await read(buyer, conversationId);
    expect(paid.paid).toBe(true);
    expect(paid.messages.at(-1).body).toBe('Great, my number is 303 555 0199');
  });
});

describe('who may do what', () => {
  it('another person can neither read nor write in it', async () => {
    const { conversationId } = await start(buyer, (await phone()).id, 'Hello');
    expect((await call(stranger, 'GET', `/api/conversations/${conversationId}`)).statusCode).toBe(
      404,
    );
    const write = await call(stranger, 'POST', `/api/conversations/${conversationId}/messages`, {
      body: 'Hi',
    });
    expect(write.statusCode).toBe(404);
    expect(await listOf(stranger)).toEqual([]);
    expect((await call(null, 'GET', '/api/conversations')).statusCode).toBe(401);
  });

  it('a seller cannot ask about a phone, and nobody about their own', async () => {
    const product = await phone();
    const asSeller = await call(seller, 'POST', '/api/conversations', {
      productId: product.id,
      body: 'Hello',
    });
    expect(asSeller.statusCode).toBe(403);
  });

  it('a phone no longer for sale takes no new conversation, but one started goes on', async () => {
    const product = await phone();
    const { conversationId } = await start(buyer, product.id, 'Still there?');
    await t.database.db
      .update(products)
      .set({ status: 'withdrawn' })
      .where(eq(products.id, product.id));
    const late = await call(stranger, 'POST', '/api/conversations', {
      productId: product.id,
      body: 'Hello',
    });
    expect(late.statusCode).toBe(409);
    expect((await start(buyer, product.id, 'Any news?')).conversationId).toBe(conversationId);
  });

  it('refuses an empty or too long message, and an unknown phone, changing nothing', async () => {
    const product = await phone();
    for (const body of ['', '   ', 'x'.repeat(MESSAGE_MAX_LENGTH + 1)]) {
      const res = await call(buyer, 'POST', '/api/conversations', { productId: product.id, body });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/body/);
    }
    const unknown = await call(buyer, 'POST', '/api/conversations', {
      productId: '00000000-0000-4000-8000-000000000000',
      body: 'Hello',
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('limits a person to twenty messages a minute', async () => {
    const writer = await createAccount(t.app, 'user');
    const { conversationId } = await start(writer, (await phone()).id, 'One');
    const answers = [];
    for (let i = 0; i < 21; i++)
      answers.push(
        (
          await call(writer, 'POST', `/api/conversations/${conversationId}/messages`, {
            body: `Message ${i}`,
          })
        ).statusCode,
      );
    expect(answers.filter((s) => s === 429).length).toBeGreaterThan(0);
  });
});

describe('reports', () => {
  it('the receiver reports a message; the admin sees it and may read that conversation', async () => {
    const product = await phone();
    const { conversationId } = await start(buyer, product.id, 'Pay me outside the site');
    const { messages } = await read(seller, conversationId);
    const messageId = messages[0]._id;

    const own = await call(buyer, 'POST', `/api/messages/${messageId}/report`, {
      reason: 'Mine',
    });
    expect(own.statusCode).toBe(403);
    expect((await call(admin, 'GET', `/api/conversations/${conversationId}`)).statusCode).toBe(404);

    const report = await call(seller, 'POST', `/api/messages/${messageId}/report`, {
      reason: 'Asks to pay outside the marketplace',
    });
    expect(report.statusCode, report.body).toBe(200);
    const twice = await call(seller, 'POST', `/api/messages/${messageId}/report`, {
      reason: 'Again',
    });
    expect(twice.statusCode).toBe(409);

    const reported = (await call(admin, 'GET', '/api/messages/reported')).json();
    expect(reported[0]).toMatchObject({
      _id: messageId,
      conversationId,
      reason: 'Asks to pay outside the marketplace',
      senderEmail: buyer.email,
    });
    const seen = await read(admin, conversationId);
    expect(seen).toMatchObject({ side: 'admin', buyerName: buyer.name });
    expect(seen.messages[0].reported).toBe(true);
    expect((await call(seller, 'GET', '/api/messages/reported')).statusCode).toBe(403);
  });
});

describe('mail for a message', () => {
  const mailsTo = async (email: string) =>
    t.database.db
      .select()
      .from(outboxMails)
      .where(and(eq(outboxMails.toAddress, email), eq(outboxMails.kind, 'message')));

  /** As if the seller's last message mail went out eleven minutes ago. */
  const tenMinutesOn = () =>
    t.database.db
      .update(outboxMails)
      .set({ createdAt: new Date(Date.now() - 11 * 60 * 1000) })
      .where(eq(outboxMails.toAddress, seller.email));

  it('goes to someone without a live page open, at most one in ten minutes', async () => {
    await tenMinutesOn();
    const product = await phone();
    const before = (await mailsTo(seller.email)).length;
    await start(buyer, product.id, 'Offline question');
    for (let i = 0; i < 3; i++) await start(buyer, product.id, `And another ${i}`);
    expect(await mailsTo(seller.email)).toHaveLength(before + 1);
    // Ten minutes on, the next message is mailed again.
    await tenMinutesOn();
    await start(buyer, product.id, 'Later question');
    expect(await mailsTo(seller.email)).toHaveLength(before + 2);
  });

  it('does not go to someone with a live page open', async () => {
    const product = await phone();
    await tenMinutesOn();
    await t.database.db
      .update(users)
      .set({ liveSeenAt: new Date() })
      .where(eq(users.email, seller.email));
    const before = (await mailsTo(seller.email)).length;
    await start(buyer, product.id, 'Online question');
    expect(await mailsTo(seller.email)).toHaveLength(before);
    await t.database.db
      .update(users)
      .set({ liveSeenAt: null })
      .where(eq(users.email, seller.email));
  });
});

describe('a name', () => {
  it('carries no contact details into a conversation before the payment', async () => {
    const sly = await createAccount(t.app, 'user');
    await t.database.db
      .update(users)
      .set({ name: 'Call 07700 900123 or eve@evil.test' })
      .where(eq(users.email, sly.email));
    const { conversationId } = await start(sly, (await phone()).id, 'Hello');
    const seen = await read(seller, conversationId);
    expect(seen.counterpartName).toBe(`Call ${HIDDEN_CONTACT} or ${HIDDEN_CONTACT}`);
    expect(seen.messages[0].senderName).not.toMatch(/07700|evil/);
    const listed = (await listOf(seller)).find((c: { _id: string }) => c._id === conversationId);
    expect(listed.counterpartName).not.toMatch(/07700|evil/);
    const [notice] = (await call(seller, 'GET', '/api/notifications')).json();
    expect(notice.text).not.toMatch(/07700|evil/);
  });
});
