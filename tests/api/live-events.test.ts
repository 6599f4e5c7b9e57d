/**
 * What the live stream is told, and whom (issue 31, decision 043): the database's triggers
 * (migration 0024) send each change's subject and id to the people who see it, in the change's
 * transaction, whichever call made it. Heard here as every server hears them (LISTEN), then on a
 * real stream.
 */
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema';
import { post } from '../../src/server/ledger/ledger';
import { parseLivePayload } from '../../src/server/live/live-hub';
import { LIVE_SUBJECTS, type LiveSubject } from '../../src/shared/live';
import { type Account, createAccount, createAdmin } from '../helpers/accounts';
import { createProduct, editOf } from '../helpers/factories';
import { buildTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
let seller: Account;
let buyer: Account;
let keeper: Account;
let stranger: Account;
let admin: Account;
let stopListening: () => Promise<void>;
/** Every event heard on the channel, in order. */
const heard: { userId: string; subject: LiveSubject; id: string | null }[] = [];

beforeAll(async () => {
  t = await buildTestApp();
  seller = await createAccount(t.app, 'seller');
  buyer = await createAccount(t.app, 'user');
  keeper = await createAccount(t.app, 'user');
  stranger = await createAccount(t.app, 'user');
  admin = await createAdmin(t.app);
  stopListening = await t.database.listen('live', (payload) => {
    const event = parseLivePayload(payload);
    if (event) heard.push(event);
  });
});
afterAll(async () => {
  await stopListening?.();
  await t?.close();
});

const call = async (who: Account, method: string, url: string, payload?: object) => {
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    headers: who.bearer,
    ...(payload ? { payload } : {}),
  });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res;
};

async function aPhone() {
  const [record] = await t.database.db.select().from(users).where(eq(users.email, seller.email));
  return createProduct(t.database.db, record as typeof users.$inferSelect);
}

/**
 * What `change` made the database tell, once it committed: waits until `expected` is heard (a
 * listener on PostgreSQL hears a moment after the commit), then a little more for anything extra.
 */
async function toldBy(
  change: () => Promise<unknown>,
  expected: (e: (typeof heard)[number]) => boolean,
) {
  const from = heard.length;
  await change();
  const deadline = Date.now() + 5000;
  while (!heard.slice(from).some(expected) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 25));
  await new Promise((resolve) => setTimeout(resolve, 150));
  return heard.slice(from);
}

const whoIsTold = (events: typeof heard, subject: LiveSubject, id?: string) =>
  new Set(
    events
      .filter((e) => e.subject === subject && (id === undefined || e.id === id))
      .map((e) => e.userId),
  );

describe('each change is told to the people who see it, and no one else', () => {
  it('a booking: the order to its buyer and seller, the bell to the seller', async () => {
    const phone = await aPhone();
    let orderId = '';
    const events = await toldBy(
      async () => {
        await call(buyer, 'POST', '/api/order', {
          productId: phone.id,
          location: 'Cafe',
          number: '+1 303 555 0100',
        });
        orderId = (
          await call(buyer, 'GET', `/api/order?email=${encodeURIComponent(buyer.email)}`)
        ).json()[0]._id;
      },
      (e) => e.subject === 'notification',
    );
    expect(whoIsTold(events, 'order', orderId)).toEqual(new Set([buyer.id, seller.id]));
    expect(whoIsTold(events, 'notification')).toEqual(new Set([seller.id]));
    expect(events.some((e) => e.userId === stranger.id)).toBe(false);
  });

  it('a price change: the phone to its seller, who keeps it, who booked it and who wrote about it', async () => {
    const phone = await aPhone();
    await call(keeper, 'POST', '/api/wishlist', { productId: phone.id });
    await call(buyer, 'POST', '/api/conversations', { productId: phone.id, body: 'Still there?' });
    const events = await toldBy(
      () => call(seller, 'PUT', `/api/products/${phone.id}`, editOf(phone, 99)),
      (e) => e.subject === 'product' && e.userId === keeper.id,
    );
    expect(whoIsTold(events, 'product', phone.id)).toEqual(
      new Set([seller.id, keeper.id, buyer.id]),
    );
    expect(events.some((e) => e.userId === stranger.id)).toBe(false);
  });

  it('a deleted phone is told to who kept it, before its wish-list rows go with it', async () => {
    const phone = await aPhone();
    await call(keeper, 'POST', '/api/wishlist', { productId: phone.id });
    const events = await toldBy(
      () => call(seller, 'DELETE', `/api/products?id=${phone.id}`),
      (e) => e.subject === 'product' && e.userId === keeper.id,
    );
    expect(whoIsTold(events, 'product', phone.id)).toEqual(new Set([seller.id, keeper.id]));
  });

  it('a message: the conversation to both sides; reading it clears its bell and tells the reader', async () => {
    const phone = await aPhone();
    let conversationId = '';
    const sent = await toldBy(
      async () => {
        const res = await call(buyer, 'POST', '/api/conversations', {
          productId: phone.id,
          body: 'Is the battery original?',
        });
        conversationId = res.json().conversationId;
      },
      (e) => e.subject === 'notification' && e.userId === seller.id,
    );
    expect(whoIsTold(sent, 'conversation', conversationId)).toEqual(new Set([buyer.id, seller.id]));
    const unread = async () =>
      (await call(seller, 'GET', '/api/notifications/unread')).json().count;
    const before = await unread();
    expect(before).toBeGreaterThan(0);

    const read = await toldBy(
      () => call(seller, 'GET', `/api/conversations/${conversationId}`),
      (e) => e.subject === 'notification' && e.userId === seller.id,
    );
    expect(whoIsTold(read, 'conversation', conversationId)).toEqual(new Set([buyer.id, seller.id]));
    expect(whoIsTold(read, 'notification')).toEqual(new Set([seller.id]));
    // The message's notification is read with its conversation; the bell counts one fewer.
    expect(await unread()).toBe(before - 1);

    // Read again (the page refreshing on that very event): nothing changes, nobody is told,
    // or a page and its events would chase each other for ever.
    const from = heard.length;
    await call(seller, 'GET', `/api/conversations/${conversationId}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard.slice(from)).toEqual([]);
  });

  it("money moved in a seller's accounts: their money", async () => {
    const events = await toldBy(
      () =>
        t.database.db.transaction((tx) =>
          post(tx, {
            key: `available:live-test-${seller.id}`,
            kind: 'available',
            sellerId: seller.id,
            legs: [
              { account: 'fees', amountCents: -100 },
              { account: `seller:${seller.id}:available`, amountCents: 100 },
            ],
          }),
        ),
      (e) => e.subject === 'money',
    );
    expect(whoIsTold(events, 'money')).toEqual(new Set([seller.id]));
  });

  it('a seller verified: their account', async () => {
    const events = await toldBy(
      () => call(admin, 'PUT', `/api/users/${encodeURIComponent(seller.email)}`),
      (e) => e.subject === 'account',
    );
    expect(whoIsTold(events, 'account')).toEqual(new Set([seller.id]));
  });

  it('every subject the stream may send is one a change above told', () => {
    expect(new Set(heard.map((e) => e.subject))).toEqual(new Set(LIVE_SUBJECTS));
  });
});

describe('the stream', () => {
  it("writes the event's subject and the thing's id, for the page to refresh what shows it", async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const controller = new AbortController();
    const res = await fetch(`http://127.0.0.1:${port}/api/events`, {
      headers: { ...seller.bearer, accept: 'text/event-stream' },
      signal: controller.signal,
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const phone = await aPhone();
    await call(seller, 'PUT', `/api/products/${phone.id}`, editOf(phone, 98));
    let text = '';
    const deadline = Date.now() + 5000;
    while (!text.includes(`event: product\ndata: {"id":"${phone.id}"}\n\n`)) {
      if (Date.now() > deadline) throw new Error(`not told; got ${JSON.stringify(text)}`);
      const chunk = await reader.read();
      if (chunk.done) break;
      text += new TextDecoder().decode(chunk.value);
    }
    controller.abort();
  });

  it('drops what is not an event of the triggers', () => {
    for (const payload of [
      'not json',
      '{}',
      JSON.stringify({ u: 'someone', s: 'order', id: null }),
      JSON.stringify({ u: buyer.id, s: 'everything', id: null }),
    ])
      expect(parseLivePayload(payload)).toBeNull();
    // An id that is not one is left out, never written into the stream.
    expect(
      parseLivePayload(JSON.stringify({ u: buyer.id, s: 'order', id: '\n\nevent: x' }))?.id,
    ).toBeNull();
    expect(parseLivePayload(JSON.stringify({ u: buyer.id, s: 'order', id: null }))).toEqual({
      userId: buyer.id,
      subject: 'order',
      id: null,
    });
  });
});
