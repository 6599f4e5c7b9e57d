/**
 * Live updates (issue 20): a signed-in page's stream of server-sent events is told when
 * something new is there for its person, written by this server or by another on the same
 * database (LISTEN/NOTIFY), over real HTTP.
 */
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { users } from '../../src/server/db/schema';
import { type Account, createAccount, SAME_SITE } from '../helpers/accounts';
import { createProduct } from '../helpers/factories';
import { buildTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
let other: FastifyInstance;
let seller: Account;
let buyer: Account;

const baseOf = (app: FastifyInstance) => {
  const { port } = app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
};

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  // A second server on the same database, as behind a load balancer.
  other = await buildApp({ config: t.app.config, database: t.database });
  await other.listen({ port: 0, host: '127.0.0.1' });
  seller = await createAccount(t.app, 'seller');
  buyer = await createAccount(t.app, 'user');
});
afterAll(async () => {
  await other?.close();
  await t?.close();
});

/** Opens a stream as a page does, and reads what arrives on it. */
async function openStream(app: FastifyInstance, who: Account) {
  const controller = new AbortController();
  const res = await fetch(`${baseOf(app)}/api/events`, {
    headers: { ...who.bearer, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    /** Waits until `event: name` has arrived `times` times in all. */
    async waitFor(name: string, times = 1, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      const count = () => text.split(`event: ${name}\n`).length - 1;
      while (count() < times) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no "${name}" event; got: ${JSON.stringify(text)}`);
        const chunk = await Promise.race([
          reader.read(),
          new Promise<null>((resolve) => setTimeout(() => resolve(null), left)),
        ]);
        if (chunk === null) continue;
        if (chunk.done) throw new Error(`stream ended; got: ${JSON.stringify(text)}`);
        text += decoder.decode(chunk.value, { stream: true });
      }
    },
    close: () => controller.abort(),
  };
}

async function bookThrough(app: FastifyInstance) {
  const [record] = await t.database.db.select().from(users).where(eq(users.email, seller.email));
  const product = await createProduct(t.database.db, record as typeof users.$inferSelect);
  const res = await app.inject({
    method: 'POST',
    url: '/api/order',
    headers: buyer.bearer,
    payload: { productId: product.id, location: 'Cafe', number: '+1 303 555 0100' },
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function signOut(who: Account) {
  const out = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-out',
    headers: { cookie: who.cookie, ...SAME_SITE },
  });
  expect(out.statusCode).toBe(200);
}

describe('a live page', () => {
  it('is told of a booking written by its own server', async () => {
    const stream = await openStream(t.app, seller);
    try {
      await bookThrough(t.app);
      await stream.waitFor('notification');
    } finally {
      stream.close();
    }
  });

  it('is told of a booking written by another server on the same database', async () => {
    const stream = await openStream(t.app, seller);
    try {
      await bookThrough(other);
      await stream.waitFor('notification');
    } finally {
      stream.close();
    }
  });

  it("is not told of another person's news", async () => {
    const stream = await openStream(t.app, buyer);
    const sellers = await openStream(t.app, seller);
    try {
      await bookThrough(t.app);
      await sellers.waitFor('notification');
      await expect(stream.waitFor('notification', 1, 500)).rejects.toThrow(/no "notification"/);
    } finally {
      stream.close();
      sellers.close();
    }
  });

  it('ends when its session ends (signed out), so it keeps nobody "online" after', async () => {
    const leaving = await createAccount(t.app, 'user');
    const stream = await openStream(t.app, leaving);
    await signOut(leaving);
    // Every ping checks the streams' sessions; here, at once.
    await t.app.live.endSignedOut();
    await expect(stream.waitFor('notification', 1, 2000)).rejects.toThrow(/stream ended/);
  });

  it('writes nothing to a stream it has just ended: the ping right after a sign-out keeps the server up', async () => {
    const leaving = await createAccount(t.app, 'user');
    const stream = await openStream(t.app, leaving);
    const staying = await openStream(t.app, seller);
    try {
      await signOut(leaving);
      // The ping's round: the signed-out stream is ended, then every listed stream pinged, the
      // ended one still listed until its connection closes (a write to it threw, unheard).
      await t.app.live.tick();
      await t.app.live.tick();
      await expect(stream.waitFor('notification', 1, 2000)).rejects.toThrow(/stream ended/);
      // The server is still up and its other streams still told.
      await bookThrough(t.app);
      await staying.waitFor('notification');
    } finally {
      staying.close();
    }
  });

  it('needs a signed-in caller who asks for a stream', async () => {
    const anonymous = await fetch(`${baseOf(t.app)}/api/events`, {
      headers: { accept: 'text/event-stream' },
    });
    expect(anonymous.status).toBe(401);
    const plain = await t.app.inject({ url: '/api/events', headers: seller.bearer });
    expect(plain.statusCode).toBe(406);
    expect(plain.json().message).toMatch(/text\/event-stream/);
  });

  it('keeps a few streams per person: the oldest ends when a sixth opens', async () => {
    const streams = [];
    for (let i = 0; i < 6; i++) streams.push(await openStream(t.app, seller));
    try {
      await expect(streams[0]?.waitFor('notification', 1, 2000)).rejects.toThrow(/stream ended/);
      await bookThrough(t.app);
      await streams[5]?.waitFor('notification');
    } finally {
      for (const s of streams) s.close();
    }
  });
});
