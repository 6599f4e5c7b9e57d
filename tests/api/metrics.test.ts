/**
 * Prometheus metrics at /api/metrics (issue 21): closed to everyone but the bearer of
 * METRICS_TOKEN, absent without one; answers counted by route template whatever URLs clients
 * send; payments by outcome as the money code decides them; backlogs read from the database.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { loosePhotos, orders, outboxMails, users } from '../../src/server/db/schema';
import { writeMails } from '../../src/server/mail/outbox';
import { type Account, createAccount } from '../helpers/accounts';
import { buyingCalls } from '../helpers/buying';
import { createProduct, createSale } from '../helpers/factories';
import { buildTestApp, createTestDatabase, type TestApp } from '../helpers/test-app';

const TOKEN = `metrics-${randomBytes(16).toString('hex')}`;
const SCRAPER = { authorization: `Bearer ${TOKEN}` };
const GOOD_CARD = { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2034, cvc: '123' };
const DECLINED_CARD = { ...GOOD_CARD, number: '4000 0000 0000 0002' };

let t: TestApp;
let seller: Account;
const { phone, bookedOrder, intentFor, confirmCard, recordCall } = buyingCalls(() => ({
  t,
  seller,
}));

beforeAll(async () => {
  t = await buildTestApp({ METRICS_TOKEN: TOKEN });
  seller = await createAccount(t.app, 'seller');
});
afterAll(() => t.close());

type Sample = { name: string; labels: Record<string, string>; value: number };

/** The samples of an answer in Prometheus's text format (comments and blank lines skipped). */
function samplesOf(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
      );
      return { name: match[1] as string, labels, value: Number(match[3]) };
    });
}

async function scrape(app: FastifyInstance = t.app) {
  const res = await app.inject({ method: 'GET', url: '/api/metrics', headers: SCRAPER });
  expect(res.statusCode, res.body).toBe(200);
  const samples = samplesOf(res.body);
  /** The sample of `name` whose labels include `labels`; 0 when there is none yet. */
  const value = (name: string, labels: Record<string, string> = {}) =>
    samples.find(
      (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
    )?.value ?? 0;
  return { res, samples, value };
}

describe('closed to the public', () => {
  it('answers 401 without the token, with a wrong one, another scheme or an account token', async () => {
    const buyer = await createAccount(t.app, 'user');
    for (const headers of [
      {},
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
      { authorization: `Basic ${Buffer.from(`metrics:${TOKEN}`).toString('base64')}` },
      { authorization: TOKEN },
      buyer.bearer,
    ]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/metrics', headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.json().message).toMatch(/metrics token/);
      expect(res.body).not.toContain('http_requests_total');
    }
  });

  it('answers the bearer of the token in the text format, never to be cached', async () => {
    const { res, value } = await scrape();
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    // The scheme is case-insensitive (RFC 7235).
    const lower = await t.app.inject({
      method: 'GET',
      url: '/api/metrics',
      headers: { authorization: `bearer ${TOKEN}` },
    });
    expect(lower.statusCode).toBe(200);
    // The process's own metrics, from this app's registry.
    expect(value('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(value('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('is a 404 like any unknown URL when no token is configured', async () => {
    const { METRICS_TOKEN: _token, ...config } = t.app.config;
    const open = await buildApp({ config, database: t.database });
    try {
      const metrics = await open.inject({ method: 'GET', url: '/api/metrics', headers: SCRAPER });
      const unknown = await open.inject({ method: 'GET', url: '/api/no-such-call' });
      expect(metrics.statusCode).toBe(404);
      expect(metrics.json()).toEqual({ message: 'Not found: GET /api/metrics' });
      expect(unknown.statusCode).toBe(404);
      expect(open.routeList.some((r) => r.url === '/api/metrics')).toBe(false);
    } finally {
      await open.close();
    }
  });
});

describe('answers by route', () => {
  it('counts and times answers by route template; unknown URLs share one label', async () => {
    const before = await scrape();
    const random = `nothing-${randomUUID()}`;
    await t.app.inject({ method: 'GET', url: '/api/category' });
    await t.app.inject({ method: 'GET', url: '/api/category?limit=5' });
    const missing = await t.app.inject({ method: 'GET', url: `/api/products/${randomUUID()}` });
    expect(missing.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/${random}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/${random}/x` })).statusCode).toBe(404);
    const after = await scrape();

    const grew = (name: string, labels: Record<string, string>) =>
      after.value(name, labels) - before.value(name, labels);
    const categories = { method: 'GET', route: '/api/category' };
    expect(grew('http_requests_total', { ...categories, status: '200' })).toBe(2);
    expect(grew('http_request_duration_seconds_count', categories)).toBe(2);
    expect(after.value('http_request_duration_seconds_sum', categories)).toBeGreaterThan(0);
    // A 404 of a route that exists keeps the route's template.
    const product = { method: 'GET', route: '/api/products/:id', status: '404' };
    expect(grew('http_requests_total', product)).toBe(1);
    expect(grew('http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(
      1,
    );
    expect(
      grew('http_requests_total', { method: 'DELETE', route: 'unmatched', status: '404' }),
    ).toBe(1);
    // The scrape before this one was counted too.
    expect(
      grew('http_requests_total', { method: 'GET', route: '/api/metrics', status: '200' }),
    ).toBe(1);
    const labels = after.samples.flatMap((s) => Object.values(s.labels));
    expect(labels.filter((l) => l.includes(random))).toEqual([]);
    const routes = new Set(
      after.samples.filter((s) => s.name === 'http_requests_total').map((s) => s.labels.route),
    );
    for (const route of routes) expect(route).toMatch(/^(\/|unmatched$|page$)/);
  });

  it('buckets latencies cumulatively up to +Inf', async () => {
    await t.app.inject({ method: 'GET', url: '/api/category' });
    const { samples } = await scrape();
    const buckets = samples.filter(
      (s) =>
        s.name === 'http_request_duration_seconds_bucket' && s.labels.route === '/api/category',
    );
    expect(buckets.map((b) => b.labels.le)).toEqual([
      '0.005',
      '0.01',
      '0.025',
      '0.05',
      '0.1',
      '0.25',
      '0.5',
      '1',
      '2.5',
      '5',
      '10',
      '+Inf',
    ]);
    const counts = buckets.map((b) => b.value);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
  });
});

describe('payments by outcome', () => {
  it('counts a paid card once, a declined card, and the capture at the handover', async () => {
    const before = await scrape();
    const buyer = await createAccount(t.app, 'user');

    const paid = await bookedOrder(buyer, (await phone()).id);
    const confirmed = await confirmCard(
      (await intentFor(buyer, paid.id)).json().clientSecret,
      GOOD_CARD,
    );
    expect(confirmed.statusCode).toBe(200);
    // The page's own record call after the confirmation recorded it: the same payment.
    const again = await recordCall(buyer, confirmed.json().paymentIntent.id, paid.id);
    expect(again.statusCode).toBe(200);

    const other = await createAccount(t.app, 'user');
    const declined = await bookedOrder(other, (await phone()).id);
    const refusal = await confirmCard(
      (await intentFor(other, declined.id)).json().clientSecret,
      DECLINED_CARD,
    );
    expect(refusal.statusCode).toBe(402);

    const refused = await recordCall(other, 'pi_not_ours', declined.id);
    expect(refused.statusCode).toBe(400);

    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, paid.id));
    const handover = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${paid.id}/handover`,
      headers: seller.bearer,
      payload: { code: order?.handoverCode },
    });
    expect(handover.statusCode).toBe(200);

    const after = await scrape();
    const grew = (outcome: string) =>
      after.value('phone_market_payments_total', { outcome }) -
      before.value('phone_market_payments_total', { outcome });
    expect(grew('paid')).toBe(1);
    expect(grew('declined')).toBe(1);
    expect(grew('refused')).toBe(1);
    expect(grew('sold_meanwhile')).toBe(0);
    const steps = (step: string) =>
      after.value('phone_market_money_steps_total', { step }) -
      before.value('phone_market_money_steps_total', { step });
    expect(steps('captured')).toBe(1);
    expect(steps('released')).toBe(0);
    // Every outcome is there from the start, so a rate has a series before the first of it.
    expect(
      after.samples
        .filter((s) => s.name === 'phone_market_payments_total')
        .map((s) => s.labels.outcome)
        .sort(),
    ).toEqual(['declined', 'paid', 'refused', 'sold_meanwhile']);
  });
});

describe('backlogs', () => {
  it('reflect a queued mail, a mail given up, a hold past its deadline and a photo due', async () => {
    // Mail written by the calls above is sent after their answers; that sending is done first.
    await t.app.outbox.idle();
    const before = await scrape();
    const db = t.database.db;
    await writeMails(db, [
      {
        to: 'someone@test.example',
        kind: 'test',
        subject: 'Hello',
        text: 'Hello',
        html: '<p>Hello</p>',
      },
    ]);
    await db.insert(outboxMails).values({
      toAddress: 'gone@test.example',
      kind: 'test',
      subject: 'Never sent',
      textBody: 'x',
      htmlBody: 'x',
      gaveUpAt: new Date(),
    });
    const [sellerRow] = await db.select().from(users).where(eq(users.email, seller.email));
    const sale = await createSale(
      db,
      await createProduct(db, sellerRow as typeof users.$inferSelect),
      {
        stage: 'paid',
      },
    );
    await db
      .update(orders)
      .set({ holdExpiresAt: new Date(Date.now() - 60_000) })
      .where(eq(orders.id, sale.id));
    await db.insert(loosePhotos).values({
      url: `/images/${randomBytes(16).toString('hex')}-640.webp`,
      checkAfter: new Date(0),
    });

    const after = await scrape();
    const grew = (name: string) => after.value(name) - before.value(name);
    expect(grew('phone_market_outbox_mails_waiting')).toBe(1);
    expect(grew('phone_market_outbox_mails_given_up')).toBe(1);
    expect(grew('phone_market_holds_overdue')).toBe(1);
    expect(grew('phone_market_loose_photos_due')).toBe(1);
    expect(after.samples.some((s) => s.name === 'phone_market_money_steps_pending')).toBe(true);
  });

  it('are left out, and the rest served, when the database does not answer', async () => {
    const database = await createTestDatabase();
    const lines: string[] = [];
    const app = await buildApp({
      // A warning on PostgreSQL (its closed pool reads as the database away), an error on PGlite.
      config: { ...t.app.config, LOG_LEVEL: 'warn' },
      database,
      logStream: { write: (line) => lines.push(line) },
    });
    try {
      await database.close();
      await app.inject({ method: 'GET', url: '/api/no-such-call' });
      const { samples } = await scrape(app);
      const names = new Set(samples.map((s) => s.name));
      expect(names.has('http_requests_total')).toBe(true);
      expect(names.has('phone_market_payments_total')).toBe(true);
      expect([...names].filter((n) => /outbox|holds|loose|pending/.test(n))).toEqual([]);
      expect(lines.join('')).toMatch(/backlogs could not be read/);
    } finally {
      await app.close();
    }
  });
});

describe('live streams', () => {
  it('counts the streams this server holds open', async () => {
    const server = await buildApp({ config: t.app.config, database: t.database });
    try {
      await server.listen({ port: 0, host: '127.0.0.1' });
      const { port } = server.server.address() as AddressInfo;
      const buyer = await createAccount(t.app, 'user');
      // A connection of its own, which the page's closing ends.
      const page = http.get({
        host: '127.0.0.1',
        port,
        path: '/api/events',
        agent: false,
        headers: { ...buyer.bearer, accept: 'text/event-stream' },
      });
      const stream = await new Promise<http.IncomingMessage>((resolve) =>
        page.once('response', resolve),
      );
      expect(stream.statusCode).toBe(200);
      expect((await scrape(server)).value('phone_market_live_streams')).toBe(1);
      page.destroy();
      await expect
        .poll(async () => (await scrape(server)).value('phone_market_live_streams'))
        .toBe(0);
    } finally {
      await server.close();
    }
  });
});
