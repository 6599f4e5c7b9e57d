import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productViews, users } from '../../src/server/db/schema';
import { ViewCounter } from '../../src/server/views/view-counter';
import { whatSellsSchema } from '../../src/shared/entities';
import { type Account, createAccount } from '../helpers/accounts';
import { createProduct, createSale, uniqueWord } from '../helpers/factories';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

type UserRow = typeof users.$inferSelect;

let t: TestApp;
let seller: Account;
let buyer: Account;
let sellerRow: UserRow;
let others: UserRow[];

const rowOf = async (account: Account) =>
  (await t.database.db.select().from(users).where(eq(users.email, account.email)))[0] as UserRow;

beforeAll(async () => {
  // Written only when a test flushes: a timer must not write between a test's steps. Public
  // answers kept, to see that a view keeps them (nothing else here reads them).
  t = await buildTestApp({ VIEW_FLUSH_MS: '60000', PUBLIC_CACHE_MS: '60000' });
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

const view = (id: string, headers: Record<string, string> = {}, remoteAddress = '203.0.113.7') =>
  t.app.inject({
    method: 'POST',
    url: `/api/products/${id}/views`,
    headers: { 'user-agent': BROWSER, ...headers },
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
  it('counts one view per person and day: a visitor by address and browser, a buyer by account', async () => {
    const phone = await createProduct(t.database.db, sellerRow);
    for (let i = 0; i < 3; i++) expect((await view(phone.id)).statusCode).toBe(204);
    // The same buyer from two addresses is one person.
    await view(phone.id, buyer.bearer, '198.51.100.1');
    await view(phone.id, buyer.bearer, '198.51.100.2');
    // Another browser at the same address is another person.
    await view(phone.id, { 'user-agent': `${BROWSER} Edg/131.0` });
    expect(await viewsOf(phone.id)).toBe(3);
    // A later flush of the same views adds nothing (another server's batch, say).
    await view(phone.id);
    expect(await viewsOf(phone.id)).toBe(3);
  });

  it('never counts the seller, robots that say so, nor a phone not for sale', async () => {
    const phone = await createProduct(t.database.db, sellerRow);
    expect((await view(phone.id, seller.bearer)).statusCode).toBe(204);
    for (const agent of [
      'Googlebot/2.1 (+http://www.google.com/bot.html)',
      'Mozilla/5.0 (compatible; bingbot/2.0)',
      'Mozilla/5.0 HeadlessChrome/131.0',
      'curl/8.5.0',
      '',
    ])
      expect((await view(phone.id, { 'user-agent': agent })).statusCode).toBe(204);
    expect(await viewsOf(phone.id)).toBe(0);
    for (const status of ['sold', 'withdrawn', 'held'] as const) {
      const other = await createProduct(t.database.db, sellerRow, { status });
      await view(other.id);
      expect(await viewsOf(other.id)).toBe(0);
    }
  });

  it('answers 204 for a phone that does not exist, and writes nothing', async () => {
    const res = await view('00000000-0000-4000-8000-000000000000');
    expect(res.statusCode).toBe(204);
    await t.app.views.flush();
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('answers 400 for an id that is not one, and counts nothing', async () => {
    const res = await view('not-an-id');
    expect(res.statusCode).toBe(400);
    expect(t.app.views.buffered).toBe(0);
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
      counter.record({ productId: phone.id, day: '2026-11-27', viewer: `v${i}`, accountId: null }),
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
        server.record({ productId: phone.id, day: '2026-11-27', viewer, accountId: null });
    await Promise.all(servers.map((s) => s.close()));
    expect(await viewsOf(phone.id)).toBe(3);
  });

  it('keeps the public answers: a view is no write the catalog shows', async () => {
    let computed = 0;
    const read = () =>
      t.app.publicAnswers.get('what-sells-test', async () => {
        computed += 1;
        return { statusCode: 200, body: '[]' } as never;
      });
    await read();
    const phone = await createProduct(t.database.db, sellerRow);
    expect((await view(phone.id)).statusCode).toBe(204);
    await read();
    expect(computed).toBe(1);
    // Any other write drops them.
    await t.app.inject({
      method: 'POST',
      url: '/api/vitals',
      payload: { name: 'CLS', value: 0.01, rating: 'good', id: 'v1', path: '/' },
    });
    await read();
    expect(computed).toBe(2);
  });
});

describe('what sells', () => {
  it('gives each listing its views, wish lists, questions, bookings and days listed', async () => {
    const phone = await createProduct(t.database.db, sellerRow, {
      createdAt: new Date(Date.now() - 3.5 * 24 * 60 * 60 * 1000),
    });
    await view(phone.id);
    await view(phone.id, buyer.bearer);
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
