import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products, users } from '../../src/server/db/schema';
import { advertisedItemSchema, categorySchema, productSchema } from '../../src/shared/entities';
import { nextLink } from '../../src/shared/pagination';
import { advertise, createProduct, createSeller } from '../helpers/factories';
import { buildTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });

describe('GET /api/category', () => {
  it('lists the five brands of the spec in code order', async () => {
    const res = await get('/api/category');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.map((c: { categoryId: string; name: string }) => [c.categoryId, c.name])).toEqual([
      ['01', 'Apple'],
      ['02', 'Samsung'],
      ['03', 'Infinix'],
      ['04', 'Oppo'],
      ['05', 'Xiaomi'],
    ]);
    for (const c of body) categorySchema.parse(c);
  });
});

describe('GET /api/category/:id', () => {
  it("answers the category's products newest first, in the contract's shape, with prices in dollars", async () => {
    const seller = await createSeller(t.database.db);
    const older = await createProduct(t.database.db, seller, {
      categoryId: '02',
      resellPriceCents: 19_999,
    });
    const newer = await createProduct(t.database.db, seller, { categoryId: '02' });
    await createProduct(t.database.db, seller, { categoryId: '04' });

    const res = await get('/api/category/02');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.map((p: { _id: string }) => p._id)).toEqual([newer.id, older.id]);
    const first = productSchema.parse(body[1]);
    expect(first).toMatchObject({
      modelName: older.modelName,
      resellPrice: 199.99,
      originalPrice: 799,
      categoryId: '02',
      sellerId: seller.id,
      sellerName: seller.name,
      status: 'available',
      userStatus: null,
      specificatons: { ram: '8 GB', storage: '128 GB', color: 'Blue', battery: 4000 },
    });
    // Anyone reads it: no way to reach the seller (issue 29).
    expect(body[1]).not.toHaveProperty('email');
    expect(body[1]).not.toHaveProperty('sellerNumber');
    expect(new Date(first.timeOfPost).getTime()).toBe(older.createdAt.getTime());
    expect(res.headers.link).toBeUndefined();
  });

  it("shows the seller's verification on every phone of theirs, old ones included", async () => {
    const seller = await createSeller(t.database.db);
    const phone = await createProduct(t.database.db, seller, { categoryId: '03' });
    await t.database.db
      .update(users)
      .set({ userStatus: 'verified' })
      .where(eq(users.id, seller.id));

    const body = (await get('/api/category/03')).json();
    expect(body.find((p: { _id: string }) => p._id === phone.id)?.userStatus).toBe('verified');
  });

  it('pages with at most `limit` items and a Link to the next page until the last', async () => {
    const seller = await createSeller(t.database.db);
    const made = [];
    for (let i = 0; i < 5; i++)
      made.push(await createProduct(t.database.db, seller, { categoryId: '04' }));
    const expected = (await get('/api/category/04?limit=100'))
      .json()
      .map((p: { _id: string }) => p._id);

    const seen: string[] = [];
    let url: string | null = '/api/category/04?limit=2';
    let pages = 0;
    while (url) {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      const page = res.json();
      expect(page.length).toBeLessThanOrEqual(2);
      seen.push(...page.map((p: { _id: string }) => p._id));
      url = nextLink(res.headers.link as string | undefined);
      pages++;
    }
    expect(seen).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 2));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('answers an empty list for a brand with no phones', async () => {
    const res = await get('/api/category/05');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it.each([
    ['/api/category/06', 'id'],
    ['/api/category/apple', 'id'],
    ['/api/category/01?limit=0', 'limit'],
    ['/api/category/01?limit=101', 'limit'],
    ['/api/category/01?limit=ten', 'limit'],
    ['/api/category/01?cursor=abc', 'cursor'],
    ['/api/category/01?cursor=-1', 'cursor'],
    [`/api/category/01?cursor=${'9'.repeat(40)}`, 'cursor'],
  ])('refuses %s with a 400 that names %s', async (url, field) => {
    const res = await get(url);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(new RegExp(field));
  });
});

describe('GET /api/advertise', () => {
  it('lists advertised phones that are still unsold, newest advertisement first', async () => {
    const seller = await createSeller(t.database.db);
    const first = await createProduct(t.database.db, seller, {
      categoryId: '01',
      modelName: 'First ad',
    });
    const sold = await createProduct(t.database.db, seller, { categoryId: '01', status: 'sold' });
    const second = await createProduct(t.database.db, seller, {
      categoryId: '01',
      modelName: 'Second ad',
    });
    await advertise(t.database.db, first);
    await advertise(t.database.db, sold);
    await advertise(t.database.db, second);

    const res = await get('/api/advertise');
    expect(res.statusCode).toBe(200);
    const items = res.json().map((i: unknown) => advertisedItemSchema.parse(i));
    expect(items.map((i: { advertiseId: string }) => i.advertiseId)).toEqual([second.id, first.id]);
    expect(items[0]).toMatchObject({
      modelName: 'Second ad',
      price: 450.5,
      categoryId: '01',
      feature: { ram: '8 GB', storage: '128 GB', color: 'Blue', battery: 4000 },
    });
    expect(res.json()[0]).not.toHaveProperty('email');
  });

  it('drops a phone from the list once it sells', async () => {
    const seller = await createSeller(t.database.db);
    const phone = await createProduct(t.database.db, seller);
    await advertise(t.database.db, phone);
    expect(
      (await get('/api/advertise')).json().map((i: { advertiseId: string }) => i.advertiseId),
    ).toContain(phone.id);

    await t.database.db.update(products).set({ status: 'sold' }).where(eq(products.id, phone.id));
    expect(
      (await get('/api/advertise')).json().map((i: { advertiseId: string }) => i.advertiseId),
    ).not.toContain(phone.id);
  });
});
