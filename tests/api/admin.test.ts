import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, payments, products, users, wishListItems } from '../../src/server/db/schema';
import { type Account, createAccount, createAdmin, signIn } from '../helpers/accounts';
import { createProduct, orderValues } from '../helpers/factories';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const ADMIN = 'admin-one@test.example';
const OTHER_ADMIN = 'admin-two@test.example';
let t: TestApp;
let admin: Account;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await createAdmin(t.app, ADMIN);
});
afterAll(() => t.close());

const recordOf = async (email: string) =>
  (await t.database.db.select().from(users).where(eq(users.email, email)))[0];
const verify = (email: string, headers = admin.bearer) =>
  t.app.inject({ method: 'PUT', url: `/api/users/${encodeURIComponent(email)}`, headers });
const remove = (id: string, headers = admin.bearer) =>
  t.app.inject({ method: 'DELETE', url: `/api/users?id=${id}`, headers });

describe('verifying sellers', () => {
  it('marks a seller verified once: the second time changes nothing', async () => {
    const seller = await createAccount(t.app, 'seller');
    const phone = await createProduct(
      t.database.db,
      (await recordOf(seller.email)) as typeof users.$inferSelect,
      {
        categoryId: '05',
      },
    );
    expect((await verify(seller.email)).json()).toEqual({ modifiedCount: 1 });
    expect((await verify(seller.email)).json()).toEqual({ modifiedCount: 0 });
    expect((await recordOf(seller.email))?.userStatus).toBe('verified');
    const listed = (await t.app.inject('/api/category/05?limit=100')).json();
    expect(listed.find((p: { _id: string }) => p._id === phone.id)?.userStatus).toBe('verified');
  });

  it('answers 404 for a buyer or an unknown e-mail, and changes nothing', async () => {
    const buyer = await createAccount(t.app, 'user');
    const res = await verify(buyer.email);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toMatch(/seller/);
    expect((await recordOf(buyer.email))?.userStatus).toBeNull();
    expect((await verify('nobody@test.example')).statusCode).toBe(404);
  });
});

describe('deleting accounts', () => {
  it("deletes a seller and their phones, ends their sign-in, and keeps a buyer's paid order and payment", async () => {
    const seller = await createAccount(t.app, 'seller');
    const buyer = await createAccount(t.app, 'user');
    const record = (await recordOf(seller.email)) as typeof users.$inferSelect;
    const sold = await createProduct(t.database.db, record, { status: 'sold' });
    const unsold = await createProduct(t.database.db, record);
    const [paid] = await t.database.db
      .insert(orders)
      .values(orderValues(buyer, sold.id, { status: 'paid', stage: 'completed' }))
      .returning();
    await t.database.db.insert(orders).values(orderValues(buyer, unsold.id));
    await t.database.db.insert(payments).values({
      transactionId: `pi_${seller.email}`,
      email: buyer.email,
      priceCents: 1000,
      orderId: paid?.id as string,
      productName: 'Phone',
      productId: sold.id,
    });

    const res = await remove(record.id);
    expect(res.json()).toEqual({ deletedCount: 1 });
    expect(await recordOf(seller.email)).toBeUndefined();
    expect(
      await t.database.db.select().from(products).where(eq(products.sellerEmail, seller.email)),
    ).toHaveLength(0);
    const left = await t.database.db.select().from(orders).where(eq(orders.email, buyer.email));
    expect(left.map((o) => o.status)).toEqual(['paid']);
    expect(
      await t.database.db
        .select()
        .from(payments)
        .where(eq(payments.orderId, paid?.id as string)),
    ).toHaveLength(1);

    expect((await signIn(t.app, seller.email, seller.password)).statusCode).toBe(401);
    const token = await t.app.inject({
      url: `/api/jwt?email=${seller.email}`,
      headers: { cookie: seller.cookie },
    });
    expect(token.statusCode).toBe(401);
    expect(
      (await t.app.inject({ url: `/api/products?email=${seller.email}`, headers: seller.bearer }))
        .statusCode,
    ).toBe(401);
  });

  it("deletes a buyer's wish list and unpaid orders but not their paid ones", async () => {
    const seller = await createAccount(t.app, 'seller');
    const buyer = await createAccount(t.app, 'user');
    const phone = await createProduct(
      t.database.db,
      (await recordOf(seller.email)) as typeof users.$inferSelect,
    );
    await t.database.db.insert(wishListItems).values({ email: buyer.email, productId: phone.id });
    await t.database.db
      .insert(orders)
      .values([
        orderValues(buyer, phone.id),
        orderValues(buyer, crypto.randomUUID(), { status: 'paid', stage: 'completed' }),
      ]);
    const record = (await recordOf(buyer.email)) as typeof users.$inferSelect;
    expect((await remove(record.id)).json()).toEqual({ deletedCount: 1 });
    expect(
      await t.database.db.select().from(wishListItems).where(eq(wishListItems.email, buyer.email)),
    ).toHaveLength(0);
    const left = await t.database.db.select().from(orders).where(eq(orders.email, buyer.email));
    expect(left.map((o) => o.status)).toEqual(['paid']);
    expect(
      (await t.app.inject('/api/category/01?limit=100')).json().map((p: { _id: string }) => p._id),
    ).toContain(phone.id);
  });

  it('refuses to delete an admin, itself included', async () => {
    const other = await createAdmin(t.app, OTHER_ADMIN);
    for (const email of [ADMIN, OTHER_ADMIN]) {
      const record = (await recordOf(email)) as typeof users.$inferSelect;
      const res = await remove(record.id);
      expect(res.statusCode).toBe(403);
      expect(await recordOf(email)).toBeDefined();
    }
    expect(other.email).toBe(OTHER_ADMIN);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expect((await remove(crypto.randomUUID())).statusCode).toBe(404);
    expect((await remove('abc')).statusCode).toBe(400);
  });
});

describe('admin calls', () => {
  it('answer 403 to buyers and sellers, and change nothing', async () => {
    const target = await createAccount(t.app, 'seller');
    const record = (await recordOf(target.email)) as typeof users.$inferSelect;
    for (const type of ['user', 'seller'] as const) {
      const caller = await createAccount(t.app, type);
      const attempts = [
        t.app.inject({ url: '/api/users/buyer', headers: caller.bearer }),
        t.app.inject({ url: '/api/users/seller', headers: caller.bearer }),
        verify(target.email, caller.bearer),
        remove(record.id, caller.bearer),
      ];
      for (const res of await Promise.all(attempts)) expect(res.statusCode).toBe(403);
    }
    expect(await recordOf(target.email)).toMatchObject({ userStatus: null });
  });

  it('page long lists with a Link to the next page', async () => {
    await Promise.all([
      createAccount(t.app, 'seller'),
      createAccount(t.app, 'seller'),
      createAccount(t.app, 'seller'),
    ]);
    const first = await t.app.inject({ url: '/api/users/seller?limit=2', headers: admin.bearer });
    expect(first.json()).toHaveLength(2);
    expect(first.headers.link).toMatch(/rel="next"/);
  });
});
