/**
 * The public catalog reads reuse their answers (decision 015): rows written straight to the
 * database stand for another server process's writes, which show only when the kept answer
 * expires; every write through this server shows at once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products, users } from '../../src/server/db/schema';
import { createAccount } from '../helpers/accounts';
import { createProduct } from '../helpers/factories';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const idsOf = (body: string) => (JSON.parse(body) as { _id: string }[]).map((p) => p._id);
/** An advertised item's `advertiseId` is its phone's id. */
const advertisedPhonesOf = (body: string) =>
  (JSON.parse(body) as { advertiseId: string }[]).map((a) => a.advertiseId);

async function sellerWithToken(t: TestApp) {
  const account = await createAccount(t.app, 'seller');
  const [row] = await t.database.db.select().from(users).where(eq(users.email, account.email));
  if (!row) throw new Error('seller not saved');
  return { ...account, row };
}

describe('with answers kept for a minute', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ PUBLIC_CACHE_MS: '60000' });
  });
  afterAll(() => t.close());
  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it("answers the same bytes and paging again, and shows another process's row only once this server writes", async () => {
    const seller = await sellerWithToken(t);
    const older = await createProduct(t.database.db, seller.row, { categoryId: '03' });
    const newer = await createProduct(t.database.db, seller.row, { categoryId: '03' });

    const first = await get('/api/category/03?limit=1');
    expect(idsOf(first.body)).toEqual([newer.id]);
    expect(first.headers.link).toMatch(/rel="next"/);

    const elsewhere = await createProduct(t.database.db, seller.row, { categoryId: '03' });
    const again = await get('/api/category/03?limit=1');
    expect(again.body).toBe(first.body);
    expect(again.headers.link).toBe(first.headers.link);
    expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
    // A query key the route ignores reads the same kept answer, not a new one.
    expect((await get('/api/category/03?limit=1&utm=x')).body).toBe(first.body);

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/products?id=${older.id}`,
      headers: seller.bearer,
    });
    expect(deleted.json()).toEqual({ deletedCount: 1 });
    expect(idsOf((await get('/api/category/03?limit=1')).body)).toEqual([elsewhere.id]);
    expect(idsOf((await get('/api/category/03')).body)).toEqual([elsewhere.id, newer.id]);
  });

  it('shows an advertisement at once, and drops it at once when the phone is deleted', async () => {
    const seller = await sellerWithToken(t);
    const phone = await createProduct(t.database.db, seller.row, { categoryId: '04' });
    expect(advertisedPhonesOf((await get('/api/advertise')).body)).not.toContain(phone.id);

    const ad = await t.app.inject({
      method: 'POST',
      url: `/api/advertise?id=${phone.id}`,
      headers: seller.bearer,
    });
    expect(ad.json()).toEqual({ acknowledged: true });
    expect(advertisedPhonesOf((await get('/api/advertise')).body)).toContain(phone.id);

    await t.app.inject({
      method: 'DELETE',
      url: `/api/products?id=${phone.id}`,
      headers: seller.bearer,
    });
    expect(advertisedPhonesOf((await get('/api/advertise')).body)).not.toContain(phone.id);
  });

  it('answers HEAD from the same route', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/api/category' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
  });

  it('still refuses a bad query with a message, and keeps nothing for it', async () => {
    const res = await get('/api/category/01?limit=0');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/limit/);
    expect(t.app.publicAnswers.size).toBeLessThan(10);
  });
});

describe('with answers kept for 200 ms', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ PUBLIC_CACHE_MS: '200' });
  });
  afterAll(() => t.close());

  it("shows another process's write once the kept answer is older than PUBLIC_CACHE_MS", async () => {
    const seller = await sellerWithToken(t);
    const phone = await createProduct(t.database.db, seller.row, { categoryId: '05' });
    const before = await t.app.inject('/api/category/05');
    expect(idsOf(before.body)).toEqual([phone.id]);

    await t.database.db.update(products).set({ status: 'sold' }).where(eq(products.id, phone.id));
    await sleep(250);
    const after = await t.app.inject('/api/category/05');
    expect(JSON.parse(after.body)[0].status).toBe('sold');
  });
});
