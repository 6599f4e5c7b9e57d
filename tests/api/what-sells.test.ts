import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { accountDevices, productViews, users } from '../../src/server/db/schema';
import { noteSeen } from '../../src/server/repositories/trust';
import { ViewCounter } from '../../src/server/views/view-counter';
import { PHONE_SHOWN_HEADER } from '../../src/shared/constants';
import { whatSellsSchema } from '../../src/shared/entities';
import { type Account, createAccount } from '../helpers/accounts';
import { createProduct, createSale, uniqueWord } from '../helpers/factories';
import { createTestDatabase, type TestApp } from '../helpers/test-app';

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

type UserRow = typeof users.$inferSelect;

let t: TestApp;
let root: string;
let seller: Account;
let buyer: Account;
let sellerRow: UserRow;
let others: UserRow[];

const rowOf = async (account: Account) =>
  (await t.database.db.select().from(users).where(eq(users.email, account.email)))[0] as UserRow;

/**
 * A stand-in for the client's server build (dist/ssr): it renders a phone page from the phone's
 * data call, as the real renderer does, and counts its renders, so a test tells a page served
 * from the kept pages from one rendered again.
 */
const RENDERER = `
export async function renderPage(request, fetchApi) {
  globalThis.pagesRendered = (globalThis.pagesRendered ?? 0) + 1;
  const [, first, id, ...rest] = new URL(request.url).pathname.split('/');
  if (first !== 'product' || !id || rest.length > 0) return { status: 200, root: null };
  const res = await fetchApi('/api/products/' + id);
  return { status: res.status, root: '<div id="root"><h1>' + res.status + '</h1></div>' };
}
`;
const INDEX =
  '<!doctype html><html><head><title>Phones</title><meta name="description" content="Used phones">' +
  '</head><body><div id="root"></div></body></html>';

const rendered = () => (globalThis as { pagesRendered?: number }).pagesRendered ?? 0;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'phone-market-views-'));
  await mkdir(path.join(root, 'client'), { recursive: true });
  await mkdir(path.join(root, 'ssr'), { recursive: true });
  await mkdir(path.join(root, 'data'), { recursive: true });
  await writeFile(path.join(root, 'client', 'index.html'), INDEX);
  await writeFile(path.join(root, 'ssr', 'entry-server.js'), RENDERER);
  const database = await createTestDatabase();
  const config = {
    ...loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: path.join(root, 'data'),
      SIGN_UPS_PER_ADDRESS: '1000000',
      SIGN_UPS_IN_ALL: '1000000',
      IDENTITY_RATE_LIMIT: '0',
      // Written only when a test flushes: a timer must not write between a test's steps. Pages
      // and answers kept a minute, to see that one served from them counts too.
      VIEW_FLUSH_MS: '60000',
      PUBLIC_CACHE_MS: '60000',
    }),
    CLIENT_DIR: path.join(root, 'client'),
  };
  const app = await buildApp({ config, database });
  t = {
    app,
    database,
    dataDir: config.DATA_DIR,
    close: async () => {
      await app.close();
      await database.close();
      await rm(root, { recursive: true, force: true });
    },
  };
  [seller, buyer] = await Promise.all([
    createAccount(t.app, 'seller'),
    createAccount(t.app, 'user'),
  ]);
  sellerRow = await rowOf(seller);
  others = await Promise.all(
    [1, 2, 3].map(async () => rowOf(await createAccount(t.app, 'seller'))),
  );
});
afterAll(() => t.close());

/** A browser's device cookie (a random id, as the server mints them). */
const deviceCookie = (id: string) => ({ cookie: `device=${id}` });
const SELLER_DEVICE = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1';
const BUYER_DEVICE = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb2';
const SHARED_DEVICE = 'ccccccccccccccccccccccccccccccc3';

/** The phone's page, as a browser asks for it: no token, whatever cookies it keeps. */
const page = (id: string, headers: Record<string, string> = {}, remoteAddress = '203.0.113.7') =>
  t.app.inject({
    method: 'GET',
    url: `/product/${id}`,
    headers: { 'user-agent': BROWSER, ...headers },
    remoteAddress,
  });

/** The phone page's own call for its phone, on a navigation in the browser. */
const data = (id: string, headers: Record<string, string> = {}, remoteAddress = '203.0.113.7') =>
  t.app.inject({
    method: 'GET',
    url: `/api/products/${id}`,
    headers: { 'user-agent': BROWSER, [PHONE_SHOWN_HEADER]: '1', ...headers },
    remoteAddress,
  });

const viewsOf = async (id: string) => {
  await t.app.views.flush();
  return (await t.database.db.select().from(productViews).where(eq(productViews.productId, id)))
    .length;
};

async function whatSells(headers = seller.bearer) {
  const res = await t.app.inject({ method: 'GET', url: '/api/what-sells', headers });
  expect(res.statusCode, res.body).toBe(200);
  return whatSellsSchema.parse(res.json());
}

describe('views of a phone page', () => {
  beforeAll(async () => {
    // The browsers each signed in from, as the trust signals note them (decision 052).
    const buyerId = (await rowOf(buyer)).id;
    const device = (id: string) => ({
      addressHash: null,
      deviceHash: t.app.fingerprints.device(id),
    });
    await noteSeen(t.database.db, sellerRow.id, device(SELLER_DEVICE));
    await noteSeen(t.database.db, buyerId, device(BUYER_DEVICE));
    await noteSeen(t.database.db, sellerRow.id, device(SHARED_DEVICE));
    await noteSeen(t.database.db, buyerId, device(SHARED_DEVICE));
    expect(await t.database.db.select().from(accountDevices)).toHaveLength(4);
  });

  it('counts the page, served rendered or kept, once per visitor and day', async () => {
    const phone = await createProduct(t.database.db, sellerRow);
    const before = rendered();
    for (let i = 0; i < 3; i++) {
      const res = await page(phone.id);
      expect(res.statusCode).toBe(200);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    // Rendered once, then served from the kept pages: each counted, one viewer.
    expect(rendered() - before).toBe(1);
    expect(await viewsOf(phone.id)).toBe(1);
    // A page kept from before another visitor came counts theirs: another browser at the same
    // address, and the same browser from another address, are other visitors.
    await page(phone.id, { 'user-agent': `${BROWSER} Edg/131.0` });
    await page(phone.id, {}, '198.51.100.9');
    expect(rendered() - before).toBe(1);
    expect(await viewsOf(phone.id)).toBe(3);
    // A later flush of the same views adds nothing (another server's batch, say).
    await page(phone.id);
    expect(await viewsOf(phone.id)).toBe(3);
  });

  it('counts the phone page’s call for its phone, kept or not, and only that call', async () => {
    const phone = await createProduct(t.database.db, sellerRow);
    // Without the page's mark (a script, the renderer's own call): nothing.
    const unmarked = await t.app.inject({
      url: `/api/products/${phone.id}`,
      headers: { 'user-agent': BROWSER },
    });
    expect(unmarked.statusCode).toBe(200);
    expect(await viewsOf(phone.id)).toBe(0);
    // The second is answered from the kept answers, and is still the same visitor's one view.
    expect((await data(phone.id)).statusCode).toBe(200);
    expect((await data(phone.id)).statusCode).toBe(200);
    expect(await viewsOf(phone.id)).toBe(1);
    // A buyer's token names them: one person from two addresses.
    await data(phone.id, buyer.bearer, '198.51.100.1');
    await data(phone.id, buyer.bearer, '198.51.100.2');
    expect(await viewsOf(phone.id)).toBe(2);
    // An answer kept from before this phone was read at all still counts its view.
    const other = await createProduct(t.database.db, sellerRow);
    await data(other.id, {}, '198.51.100.3');
    await data(other.id, {}, '198.51.100.4');
    expect(await viewsOf(other.id)).toBe(2);
  });

  it('is one view a day for a signed-in person, by the page or the data call', async () => {
    const phone = await createProduct(t.database.db, sellerRow);
    // The buyer's browser: the page (no token, their device cookie), then the data call with
    // their token from another address: one person.
    await page(phone.id, deviceCookie(BUYER_DEVICE));
    await data(phone.id, { ...buyer.bearer, ...deviceCookie(BUYER_DEVICE) }, '198.51.100.5');
    expect(await viewsOf(phone.id)).toBe(1);
    // A browser nobody signed in from is a visitor of its own, whatever its address.
    const fresh = 'dddddddddddddddddddddddddddddd44';
    await page(phone.id, deviceCookie(fresh), '198.51.100.6');
    await page(phone.id, deviceCookie(fresh), '198.51.100.7');
    expect(await viewsOf(phone.id)).toBe(2);
    // A browser the buyer just signed in on, not noted yet: its page and its data call with the
    // token are still one viewer (the browser), in one batch or in two.
    const newer = 'eeeeeeeeeeeeeeeeeeeeeeeeeeeeee55';
    await page(phone.id, deviceCookie(newer), '198.51.100.12');
    expect(await viewsOf(phone.id)).toBe(3);
    await data(phone.id, { ...buyer.bearer, ...deviceCookie(newer) }, '198.51.100.13');
    expect(await viewsOf(phone.id)).toBe(3);
  });

  it('never counts the seller, by token or by a browser they signed in from', async () => {
    const phone = await createProduct(t.database.db, sellerRow);
    await data(phone.id, seller.bearer);
    await page(phone.id, deviceCookie(SELLER_DEVICE));
    await data(phone.id, deviceCookie(SELLER_DEVICE));
    // Kept pages too: the seller's visit served from the kept page is left out as well.
    await page(phone.id, deviceCookie(SELLER_DEVICE), '198.51.100.8');
    // A browser the seller and another share: it could be the seller, so it is not counted.
    await page(phone.id, deviceCookie(SHARED_DEVICE));
    expect(await viewsOf(phone.id)).toBe(0);
    // The buyer's browser, which only the buyer signed in from, is counted (as the buyer).
    await page(phone.id, deviceCookie(BUYER_DEVICE));
    expect(await viewsOf(phone.id)).toBe(1);
  });

  it('never counts robots that say so, prefetches, nor a phone not for sale', async () => {
    const phone = await createProduct(t.database.db, sellerRow);
    for (const agent of [
      'Googlebot/2.1 (+http://www.google.com/bot.html)',
      'Mozilla/5.0 (compatible; bingbot/2.0)',
      'Mozilla/5.0 HeadlessChrome/131.0',
      'curl/8.5.0',
      '',
    ]) {
      expect((await page(phone.id, { 'user-agent': agent })).statusCode).toBe(200);
      expect((await data(phone.id, { 'user-agent': agent })).statusCode).toBe(200);
    }
    // A link's prefetch or a prerender says so: the page is not shown (yet).
    await page(phone.id, { 'sec-purpose': 'prefetch' });
    await page(phone.id, { 'sec-purpose': 'prefetch;prerender' });
    await page(phone.id, { purpose: 'prefetch' });
    // HEAD is no showing either.
    await t.app.inject({
      method: 'HEAD',
      url: `/product/${phone.id}`,
      headers: { 'user-agent': BROWSER },
    });
    expect(await viewsOf(phone.id)).toBe(0);
    for (const status of ['sold', 'withdrawn', 'held'] as const) {
      const other = await createProduct(t.database.db, sellerRow, { status });
      await page(other.id);
      await data(other.id);
      expect(await viewsOf(other.id)).toBe(0);
    }
  });

  it('counts nothing for a phone that does not exist or an id that is not one', async () => {
    const res = await page('00000000-0000-4000-8000-000000000000');
    expect(res.statusCode).toBe(404);
    expect((await data('00000000-0000-4000-8000-000000000001')).statusCode).toBe(404);
    expect((await page('not-an-id')).statusCode).toBeGreaterThanOrEqual(400);
    expect((await data('not-an-id')).statusCode).toBe(400);
    expect(t.app.views.buffered).toBe(1);
    await t.app.views.flush();
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('counts nothing when the operator turned counting off', async () => {
    const phone = await createProduct(t.database.db, sellerRow);
    await t.app.views.flush();
    t.app.config.COUNT_VIEWS = false;
    try {
      await page(phone.id, {}, '198.51.100.10');
      await data(phone.id, {}, '198.51.100.11');
    } finally {
      t.app.config.COUNT_VIEWS = true;
    }
    expect(t.app.views.buffered).toBe(0);
    expect(await viewsOf(phone.id)).toBe(0);
  });

  it('keeps at most its bound of views between writes, dropping the rest', async () => {
    const phone = await createProduct(t.database.db, sellerRow);
    const counter = new ViewCounter({
      db: t.database.db,
      maxBuffered: 5,
      flushMs: 60_000,
      onError: (err) => {
        throw err;
      },
    });
    const kept = Array.from({ length: 50 }, (_, i) =>
      counter.record({
        productId: phone.id,
        day: '2026-11-27',
        viewer: `v${i}`,
        accountId: null,
        deviceHash: null,
      }),
    );
    expect(counter.buffered).toBeLessThanOrEqual(5);
    expect(kept.filter((k) => !k).length).toBe(45);
    expect(counter.dropped).toBe(45);
    await counter.close();
    expect(counter.buffered).toBe(0);
    expect(await viewsOf(phone.id)).toBe(5);
  });

  it('lets several servers write the same views: one row each', async () => {
    const phone = await createProduct(t.database.db, sellerRow);
    const servers = [1, 2, 3].map(() => new ViewCounter({ db: t.database.db, flushMs: 60_000 }));
    for (const server of servers)
      for (const viewer of ['a', 'b', 'c'])
        server.record({
          productId: phone.id,
          day: '2026-11-27',
          viewer,
          accountId: null,
          deviceHash: null,
        });
    await Promise.all(servers.map((s) => s.close()));
    expect(await viewsOf(phone.id)).toBe(3);
  });
});

describe('what sells', () => {
  it('gives each listing its views, wish lists, questions, bookings and days listed', async () => {
    const phone = await createProduct(t.database.db, sellerRow, {
      createdAt: new Date(Date.now() - 3.5 * 24 * 60 * 60 * 1000),
    });
    await page(phone.id);
    await data(phone.id, buyer.bearer);
    const wish = await t.app.inject({
      method: 'POST',
      url: '/api/wishlist',
      headers: buyer.bearer,
      payload: { productId: phone.id },
    });
    const asked = await t.app.inject({
      method: 'POST',
      url: '/api/conversations',
      headers: buyer.bearer,
      payload: { productId: phone.id, body: 'Is the battery original?' },
    });
    await t.app.views.flush();
    const answer = await whatSells();
    const listing = answer.listings.find((l) => l._id === phone.id);
    expect(listing).toMatchObject({
      views: 2,
      wishLists: wish.statusCode === 200 ? 1 : 0,
      questions: asked.statusCode === 200 ? 1 : 0,
      bookings: 0,
      daysListed: 3,
    });
    expect(wish.statusCode, wish.body).toBe(200);
    expect(asked.statusCode, asked.body).toBe(200);
    // The seller's views by week: twelve weeks, this one last, with these two views.
    expect(answer.weeks).toHaveLength(12);
    expect(answer.weeks.at(-1)?.views).toBeGreaterThanOrEqual(2);
  });

  it('gives a model the median days to sell and the quick sales price only with enough parties', async () => {
    const modelName = `Pixel ${uniqueWord()}`;
    await createProduct(t.database.db, sellerRow, { modelName, storage: '256 GB' });
    const sell = async (by: UserRow, listedDaysAgo: number, price: number) => {
      const p = await createProduct(t.database.db, by, {
        modelName,
        storage: '256 GB',
        resellPriceCents: price * 100,
        createdAt: new Date(Date.now() - listedDaysAgo * 24 * 60 * 60 * 1000),
      });
      // Booked two hours before the sale, a day ago.
      await createSale(t.database.db, p, { priceCents: price * 100, daysAgo: 1 });
    };
    // Four sales by one seller: not enough parties.
    for (const [days, price] of [
      [3, 400],
      [4, 410],
      [5, 420],
      [20, 300],
    ] as const)
      await sell(others[0] as UserRow, days, price);
    let model = (await whatSells()).models.find((m) => m.modelName === modelName);
    expect(model).toMatchObject({
      storage: '256 GB',
      medianDaysToSell: null,
      quickSalePrice: null,
    });
    // With sales by three sellers to five buyers: days 2,3,4,5,6,19,29 → median 4 (whole days,
    // booked two hours before the sale a day ago); quick ones (≤ 7 days): 400..450, median 420.
    await sell(others[1] as UserRow, 6, 450);
    await sell(others[2] as UserRow, 7, 430);
    await sell(others[2] as UserRow, 30, 250);
    model = (await whatSells()).models.find((m) => m.modelName === modelName);
    expect(model?.medianDaysToSell).toBe(4);
    expect(model?.quickSalePrice).toBe(420);
  });

  it('counts the seller’s completed sales by week', async () => {
    const before = (await whatSells()).weeks.reduce((n, w) => n + w.sales, 0);
    const phone = await createProduct(t.database.db, sellerRow);
    await createSale(t.database.db, phone, { daysAgo: 0 });
    const after = (await whatSells()).weeks.reduce((n, w) => n + w.sales, 0);
    expect(after).toBe(before + 1);
  });

  it('answers only the caller’s own listings', async () => {
    const other = await createAccount(t.app, 'seller');
    const answer = await whatSells(other.bearer);
    expect(answer.listings).toEqual([]);
    expect(answer.models).toEqual([]);
  });

  it('refuses a buyer and a visitor', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/what-sells', headers: buyer.bearer }))
        .statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/what-sells' })).statusCode).toBe(401);
  });
});
