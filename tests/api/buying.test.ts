import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, users } from '../../src/server/db/schema';
import { orderSchema, wishListItemSchema } from '../../src/shared/entities';
import { type Account, createAccount } from '../helpers/accounts';
import { createProduct } from '../helpers/factories';
import { buildTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
let seller: Account;
let buyer: Account;
let otherBuyer: Account;

beforeAll(async () => {
  t = await buildTestApp();
  [seller, buyer, otherBuyer] = await Promise.all([
    createAccount(t.app, 'seller'),
    createAccount(t.app, 'user'),
    createAccount(t.app, 'user'),
  ]);
});
afterAll(() => t.close());

const phone = async (overrides = {}) => {
  const [record] = await t.database.db.select().from(users).where(eq(users.email, seller.email));
  return createProduct(t.database.db, record as typeof users.$inferSelect, overrides);
};
const call = (method: 'GET' | 'POST' | 'DELETE', url: string, who: Account, payload?: object) =>
  t.app.inject({ method, url, headers: who.bearer, ...(payload ? { payload } : {}) });

describe('wish list', () => {
  it('adds a phone once, lists it from live product data, and deletes it', async () => {
    const p = await phone({
      modelName: 'Wished Phone',
      resellPriceCents: 12_345,
      categoryId: '03',
    });
    expect(
      (
        await call('POST', '/api/wishlist', buyer, { productId: p.id, price: 1, productName: 'x' })
      ).json(),
    ).toEqual({
      acknowledged: true,
    });
    expect((await call('POST', '/api/wishlist', buyer, { productId: p.id })).json()).toEqual({
      acknowledged: false,
      message: 'Already Added',
    });
    const list = (await call('GET', `/api/wishlist?email=${buyer.email}`, buyer)).json();
    const item = wishListItemSchema.parse(
      list.find((i: { productId: string }) => i.productId === p.id),
    );
    expect(item).toMatchObject({
      productName: 'Wished Phone',
      price: 123.45,
      categoryId: '03',
      email: buyer.email,
    });

    expect((await call('DELETE', `/api/wishlist/${item._id}`, otherBuyer)).statusCode).toBe(403);
    expect((await call('DELETE', `/api/wishlist/${item._id}`, buyer)).json()).toEqual({
      deletedCount: 1,
    });
  });

  it("keeps each buyer's list private, and is for buyers only", async () => {
    expect((await call('GET', `/api/wishlist?email=${buyer.email}`, otherBuyer)).statusCode).toBe(
      403,
    );
    const p = await phone();
    expect((await call('POST', '/api/wishlist', seller, { productId: p.id })).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/wishlist', payload: { productId: p.id } }))
        .statusCode,
    ).toBe(401);
    expect(
      (await call('POST', '/api/wishlist', buyer, { productId: crypto.randomUUID() })).statusCode,
    ).toBe(404);
  });
});

describe('booking', () => {
  it('books at the resale price, with the name, e-mail and phone details from the server', async () => {
    const p = await phone({ modelName: 'Booked Phone', resellPriceCents: 45_000 });
    const res = await call('POST', '/api/order', buyer, {
      productId: p.id,
      location: 'Library steps',
      number: '+1 512 555 0123',
      price: 1,
      userName: 'Forged',
      email: otherBuyer.email,
      productName: 'Forged',
    });
    expect(res.json()).toEqual({ acknowledged: true, insertedId: expect.any(String) });
    const mine = (await call('GET', `/api/order?email=${buyer.email}`, buyer)).json();
    expect(
      orderSchema.parse(mine.find((o: { productId: string }) => o.productId === p.id)),
    ).toMatchObject({
      userName: buyer.name,
      email: buyer.email,
      productName: 'Booked Phone',
      price: 450,
      location: 'Library steps',
      number: '+1 512 555 0123',
      image: p.image,
      status: 'unpaid',
    });
  });

  it('answers Already Booked to a second booking of the same phone', async () => {
    const p = await phone();
    const body = { productId: p.id, location: 'Cafe', number: '1' };
    expect((await call('POST', '/api/order', buyer, body)).statusCode).toBe(200);
    const again = await call('POST', '/api/order', buyer, body);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Already Booked');
    expect((await call('POST', '/api/order', otherBuyer, body)).statusCode).toBe(200);
  });

  it('refuses a sold phone, a missing phone, a seller, and missing fields', async () => {
    const sold = await phone({ status: 'sold' });
    expect(
      (await call('POST', '/api/order', buyer, { productId: sold.id, location: 'A', number: '1' }))
        .statusCode,
    ).toBe(409);
    expect(
      (
        await call('POST', '/api/order', buyer, {
          productId: crypto.randomUUID(),
          location: 'A',
          number: '1',
        })
      ).statusCode,
    ).toBe(404);
    const p = await phone();
    expect(
      (await call('POST', '/api/order', seller, { productId: p.id, location: 'A', number: '1' }))
        .statusCode,
    ).toBe(403);
    const missing = await call('POST', '/api/order', buyer, {
      productId: p.id,
      location: ' ',
      number: '',
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/location/);
  });
});

describe('orders', () => {
  it('lets only the buyer read, pay or delete their order; a paid order stays', async () => {
    const p = await phone();
    await call('POST', '/api/order', buyer, { productId: p.id, location: 'A', number: '1' });
    const [order] = await t.database.db.select().from(orders).where(eq(orders.productId, p.id));
    const id = order?.id as string;

    expect((await call('GET', `/api/order?email=${buyer.email}`, otherBuyer)).statusCode).toBe(403);
    expect((await call('GET', `/api/payment/${id}`, otherBuyer)).statusCode).toBe(403);
    expect((await call('GET', `/api/payment/${id}`, buyer)).json()).toMatchObject({
      _id: id,
      email: buyer.email,
    });
    expect((await call('DELETE', `/api/order?id=${id}`, otherBuyer)).statusCode).toBe(403);

    await t.database.db
      .update(orders)
      .set({ status: 'paid', stage: 'paid' })
      .where(eq(orders.id, id));
    const paid = await call('DELETE', `/api/order?id=${id}`, buyer);
    expect(paid.statusCode).toBe(409);
    expect(paid.json().message).toMatch(/paid/);
    await t.database.db
      .update(orders)
      .set({ status: 'unpaid', stage: 'booked' })
      .where(eq(orders.id, id));
    expect((await call('DELETE', `/api/order?id=${id}`, buyer)).json()).toEqual({
      deletedCount: 1,
    });
    expect((await call('GET', `/api/payment/${id}`, buyer)).statusCode).toBe(404);
  });
});
