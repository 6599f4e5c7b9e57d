/**
 * A phone's page and a seller's page (issue 18): `GET /api/products/:id`, `GET /api/sellers/:id`
 * and `GET /api/sellers/:id/products`, public reads that never show a seller's e-mail or number.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, products, ratings, users } from '../../src/server/db/schema';
import { productPageSchema } from '../../src/shared/api';
import { productSchema, sellerProfileSchema } from '../../src/shared/entities';
import { nextLink } from '../../src/shared/pagination';
import { createAccount, createAdmin } from '../helpers/accounts';
import { createProduct, createSeller, orderValues } from '../helpers/factories';
import { buildTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });
const UNKNOWN_ID = '7b0a3c1e-0000-4000-8000-00000000dead';

/** A completed sale's rating of `seller` by its buyer. */
async function rate(seller: typeof users.$inferSelect, stars: number) {
  const phone = await createProduct(t.database.db, seller, { status: 'sold' });
  const buyer = await createSeller(t.database.db, { type: 'user' });
  const [order] = await t.database.db
    .insert(orders)
    .values(
      orderValues(buyer, phone.id, {
        status: 'paid',
        stage: 'completed',
        sellerId: seller.id,
        paidAt: new Date(),
        completedAt: new Date(),
      }),
    )
    .returning();
  await t.database.db
    .insert(ratings)
    // Counted, as a rating between unrelated accounts is (decision 038).
    .values({
      orderId: order?.id as string,
      by: 'buyer',
      raterId: buyer.id,
      rateeId: seller.id,
      stars,
      counts: true,
    });
}

/** What a profile must never carry: the seller's e-mail address or a phone number. */
function expectNoContactDetails(body: string, seller: { email: string }) {
  expect(body).not.toContain(seller.email);
  expect(body).not.toContain('+1 512 555 0100');
  expect(body).not.toMatch(/"(email|sellerNumber|number)"/);
}

describe('GET /api/products/:id', () => {
  it("answers the phone, every photo in order, and its seller's live profile", async () => {
    const seller = await createSeller(t.database.db, { userStatus: 'verified' });
    const photos = [
      '/images/00000000000000000000000000000001-640.webp',
      '/images/00000000000000000000000000000002-640.webp',
      '/images/00000000000000000000000000000003-640.webp',
    ];
    const phone = await createProduct(t.database.db, seller, {
      categoryId: '02',
      image: photos[0],
      photos,
    });
    await createProduct(t.database.db, seller, { status: 'sold' });
    await rate(seller, 4);
    await rate(seller, 5);

    const res = await get(`/api/products/${phone.id}`);
    expect(res.statusCode).toBe(200);
    const body = productPageSchema.parse(res.json());
    expect(body.product).toMatchObject({
      _id: phone.id,
      modelName: phone.modelName,
      image: photos[0],
      photos,
      categoryId: '02',
      status: 'available',
      userStatus: 'verified',
      sellerId: seller.id,
      sellerRating: { average: 4.5, count: 2 },
      resellPrice: 450.5,
    });
    expect(body.seller).toEqual({
      _id: seller.id,
      name: seller.name,
      verified: true,
      memberSince: seller.createdAt.toISOString(),
      rating: { average: 4.5, count: 2 },
      // The two rated sales' phones and the sold one.
      soldCount: 3,
      forSaleCount: 1,
    });
    expectNoContactDetails(JSON.stringify(res.json().seller), seller);
  });

  it('answers a sold phone as sold: its page stays, marked so', async () => {
    const seller = await createSeller(t.database.db);
    const phone = await createProduct(t.database.db, seller, { status: 'sold' });
    const res = await get(`/api/products/${phone.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().product.status).toBe('sold');
    expect(res.json().seller).toMatchObject({ verified: false, soldCount: 1, forSaleCount: 0 });
  });

  it('answers 404 for a deleted phone and for an id that never was', async () => {
    const seller = await createSeller(t.database.db);
    const phone = await createProduct(t.database.db, seller);
    await t.database.db.delete(products).where(eq(products.id, phone.id));
    for (const id of [phone.id, UNKNOWN_ID]) {
      const res = await get(`/api/products/${id}`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ message: 'No such phone' });
    }
  });

  it.each(['not-an-id', '123', `${UNKNOWN_ID}x`, "1' or '1'='1"])(
    'refuses the malformed id %s with a 400 that names id',
    async (id) => {
      const res = await get(`/api/products/${encodeURIComponent(id)}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/id/);
    },
  );
});

describe('GET /api/sellers/:id', () => {
  it('answers the profile: name, verified, member since, rating and counts', async () => {
    const seller = await createSeller(t.database.db);
    for (let i = 0; i < 3; i++) await createProduct(t.database.db, seller);
    await createProduct(t.database.db, seller, { status: 'sold' });
    await rate(seller, 3);

    const res = await get(`/api/sellers/${seller.id}`);
    expect(res.statusCode).toBe(200);
    expect(sellerProfileSchema.strict().parse(res.json())).toEqual({
      _id: seller.id,
      name: seller.name,
      verified: false,
      memberSince: seller.createdAt.toISOString(),
      rating: { average: 3, count: 1 },
      soldCount: 2,
      forSaleCount: 3,
    });
    expectNoContactDetails(res.body, seller);
  });

  it('shows a verification the moment the admin grants it', async () => {
    const seller = await createSeller(t.database.db);
    await t.database.db
      .update(users)
      .set({ userStatus: 'verified' })
      .where(eq(users.id, seller.id));
    expect((await get(`/api/sellers/${seller.id}`)).json()).toMatchObject({
      verified: true,
      rating: { average: null, count: 0 },
      soldCount: 0,
      forSaleCount: 0,
    });
  });

  it('answers 404 for a buyer, an admin, a deleted seller and an unknown id', async () => {
    const buyer = await createAccount(t.app, 'user');
    const admin = await createAdmin(t.app);
    const deleted = await createAccount(t.app, 'seller');
    const removal = await t.app.inject({
      method: 'DELETE',
      url: `/api/users?id=${deleted.id}`,
      headers: admin.bearer,
    });
    expect(removal.statusCode).toBe(200);

    for (const id of [buyer.id, admin.id, deleted.id, UNKNOWN_ID]) {
      for (const url of [`/api/sellers/${id}`, `/api/sellers/${id}/products`]) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.json()).toEqual({ message: 'No such seller' });
      }
    }
  });

  it('refuses a malformed id with a 400 that names id', async () => {
    for (const url of ['/api/sellers/nope', '/api/sellers/nope/products']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message).toMatch(/id/);
    }
  });
});

describe('GET /api/sellers/:id/products', () => {
  it('pages through the unsold phones newest first, without gaps or repeats', async () => {
    const seller = await createSeller(t.database.db);
    const other = await createSeller(t.database.db);
    const unsold = [];
    for (let i = 0; i < 5; i++) {
      unsold.push(await createProduct(t.database.db, seller, { categoryId: i % 2 ? '01' : '04' }));
      await createProduct(t.database.db, seller, { status: 'sold' });
      await createProduct(t.database.db, other);
    }

    const seen: string[] = [];
    let url: string | null = `/api/sellers/${seller.id}/products?limit=2`;
    let pages = 0;
    while (url) {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      const page = res.json();
      expect(page.length).toBeLessThanOrEqual(2);
      for (const p of page) expect(productSchema.parse(p).status).toBe('available');
      seen.push(...page.map((p: { _id: string }) => p._id));
      url = nextLink(res.headers.link as string | undefined);
      pages++;
    }
    expect(seen).toEqual(unsold.map((p) => p.id).reverse());
    expect(pages).toBe(3);
  });

  it('answers an empty list for a seller with nothing for sale', async () => {
    const seller = await createSeller(t.database.db);
    await createProduct(t.database.db, seller, { status: 'sold' });
    const res = await get(`/api/sellers/${seller.id}/products`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(res.headers.link).toBeUndefined();
  });

  it.each(['limit=0', 'limit=101', 'cursor=abc'])('refuses ?%s with a 400', async (query) => {
    const seller = await createSeller(t.database.db);
    expect((await get(`/api/sellers/${seller.id}/products?${query}`)).statusCode).toBe(400);
  });
});
