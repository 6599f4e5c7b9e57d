/**
 * Listings a seller can manage (issue 19): the form's fields as people type them, messages that
 * name the field as the form labels it (with `fields` for the form), editing by stage, withdrawing
 * and relisting, stopping an advertisement, and the admin's un-verify.
 */
import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, priceHistory, products, users } from '../../src/server/db/schema';

const DAY_MS = 24 * 60 * 60 * 1000;

import { insertBlockedImei } from '../../src/server/repositories/imeis';
import { type Account, createAccount, createAdmin } from '../helpers/accounts';
import { advertise, createProduct, uniqueImei, uniqueWord } from '../helpers/factories';
import { uploadPhoto } from '../helpers/multipart';
import { buildTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
let seller: Account;
let otherSeller: Account;
let buyer: Account;
let admin: Account;
let image: string;

beforeAll(async () => {
  t = await buildTestApp();
  [seller, otherSeller, buyer, admin] = await Promise.all([
    createAccount(t.app, 'seller'),
    createAccount(t.app, 'seller'),
    createAccount(t.app, 'user'),
    createAdmin(t.app),
  ]);
  const jpeg = await sharp({
    create: { width: 800, height: 600, channels: 3, background: '#468' },
  })
    .jpeg()
    .toBuffer();
  image = (await uploadPhoto(t.app, seller.bearer, jpeg, 'phone.jpg', 'image/jpeg')).json().data
    .url;
  // Sellers of long standing: this file's many dear phones are no new account's (issue 34).
  await t.database.db
    .update(users)
    .set({ createdAt: new Date(Date.now() - 90 * DAY_MS) })
    .where(inArray(users.id, [seller.id, otherSeller.id]));
});
afterAll(() => t.close());

/** A word no other listing has, so lists and searches can be asked about this one only. */
const uniqueModel = () => `Listwell ${uniqueWord()}`;

const typed = (change: Record<string, unknown> = {}) => ({
  categoryId: '05',
  modelName: uniqueModel(),
  image,
  originalPrice: '$1,500',
  resellPrice: '1,200',
  location: 'Austin, TX',
  description: 'Clean, with its box.',
  timeUsed: '18 months',
  condition: 'Good',
  sellerNumber: '+1 512 555 0100',
  specificatons: { ram: '8 GB', storage: '128 GB', color: 'Black', battery: '4,500 mAh' },
  imei: uniqueImei(),
  ...change,
});

const { image: _cover, ...typedEdit } = typed();
const edit = (change: Record<string, unknown> = {}) => ({ ...typedEdit, ...change });

async function list(body: object, headers = seller.bearer) {
  return t.app.inject({ method: 'POST', url: '/api/products', payload: body, headers });
}

async function listed(body: object = typed()): Promise<string> {
  const res = await list(body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().insertedId;
}

const publicProduct = async (id: string) =>
  (await t.app.inject({ url: `/api/products/${id}` })).json().product;

const mine = async (account = seller) =>
  (
    await t.app.inject({
      url: `/api/products?email=${account.email}&limit=100`,
      headers: account.bearer,
    })
  ).json() as Array<Record<string, unknown> & { _id: string }>;

const put = (id: string, body: object, headers: Record<string, string> = seller.bearer) =>
  t.app.inject({ method: 'PUT', url: `/api/products/${id}`, payload: body, headers });
const post = (url: string, headers: Record<string, string> = seller.bearer) =>
  t.app.inject({ method: 'POST', url, headers });

const sellerRow = async (account: Account) =>
  (
    await t.database.db.select().from(users).where(eq(users.email, account.email))
  )[0] as typeof users.$inferSelect;

describe('Add A Product reads what people type', () => {
  it.each([
    ['resellPrice', '$1,200', 'resellPrice', 1200],
    ['resellPrice', '1,200.50', 'resellPrice', 1200.5],
    ['resellPrice', '1 200', 'resellPrice', 1200],
    ['resellPrice', '$ 99.99', 'resellPrice', 99.99],
    ['originalPrice', '$1,500', 'originalPrice', 1500],
    ['timeUsed', '18', 'timeUsed', 18],
    ['timeUsed', '18 months', 'timeUsed', 18],
    ['timeUsed', '18 mo', 'timeUsed', 18],
    ['timeUsed', '1.5 years', 'timeUsed', 18],
    ['timeUsed', '2 yrs', 'timeUsed', 24],
    ['timeUsed', '1 year', 'timeUsed', 12],
    ['batteryHealth', '85%', 'batteryHealth', 85],
    ['batteryHealth', '', 'batteryHealth', null],
  ])('%s typed as %j is stored as its value', async (field, value, shown, expected) => {
    const id = await listed(typed({ [field]: value }));
    const product = await publicProduct(id);
    expect(product[shown]).toBe(expected);
  });

  it.each(['4,500', '4500 mAh', '4,500mAh', '4 500', 4500])(
    'battery typed as %j is 4500 mAh',
    async (battery) => {
      const id = await listed(
        typed({ specificatons: { ram: '8 GB', storage: '128 GB', color: 'Black', battery } }),
      );
      expect((await publicProduct(id)).specificatons.battery).toBe(4500);
    },
  );

  it('shows the seller the values as stored in My Products, with the IMEI', async () => {
    const imei = uniqueImei();
    const id = await listed(typed({ imei: `${imei.slice(0, 2)} ${imei.slice(2)}` }));
    const own = (await mine()).find((p) => p._id === id);
    expect(own).toMatchObject({
      resellPrice: 1200,
      originalPrice: 1500,
      timeUsed: 18,
      imei,
      advertised: false,
      imeiBlocked: false,
      status: 'available',
    });
  });

  const internalName =
    /resellPrice|originalPrice|timeUsed|specificatons|batteryHealth|sellerNumber/;

  it.each([
    ['resellPrice', { resellPrice: '1,20' }, 'Resale price ($)'],
    ['resellPrice', { resellPrice: 'cheap' }, 'Resale price ($)'],
    ['resellPrice', { resellPrice: '12.345' }, 'Resale price ($)'],
    ['resellPrice', { resellPrice: '0' }, 'Resale price ($)'],
    ['originalPrice', { originalPrice: '' }, 'Original price ($)'],
    [
      'specificatons.battery',
      { specificatons: { ram: '8 GB', storage: '128 GB', color: 'Black', battery: 'big' } },
      'Battery (mAh)',
    ],
    ['timeUsed', { timeUsed: 'forever' }, 'Time used (months)'],
    ['timeUsed', { timeUsed: '3 weeks' }, 'Time used (months)'],
    ['batteryHealth', { batteryHealth: 40 }, 'Battery health (%)'],
    ['batteryHealth', { batteryHealth: '101%' }, 'Battery health (%)'],
    ['imei', { imei: '490154203237519' }, 'IMEI'],
    ['imei', { imei: '1234' }, 'IMEI'],
    ['modelName', { modelName: '  ' }, 'Model name'],
    ['condition', { condition: 'Mint' }, 'Condition'],
    ['sellerNumber', { sellerNumber: '' }, 'Phone number'],
  ])(
    'an unreadable %s is refused naming %j, with fields for the form',
    async (path, change, label) => {
      const res = await list(typed(change));
      expect(res.statusCode).toBe(400);
      const { message, fields } = res.json();
      expect(message.startsWith(`${label}: `)).toBe(true);
      expect(message).not.toMatch(internalName);
      expect(fields).toEqual({ [path]: message });
    },
  );

  it('names every unreadable field in one answer', async () => {
    const res = await list(
      typed({
        resellPrice: 'abc',
        timeUsed: 'a while',
        specificatons: { ram: '8 GB', storage: '128 GB', color: 'Black', battery: 'lots' },
      }),
    );
    expect(res.statusCode).toBe(400);
    const { fields, message } = res.json();
    expect(Object.keys(fields).sort()).toEqual([
      'resellPrice',
      'specificatons.battery',
      'timeUsed',
    ]);
    expect(message).toContain('Resale price ($):');
    expect(message).toContain('Battery (mAh):');
    expect(message).toContain('Time used (months):');
  });

  it("answers a duplicate IMEI with 409 next to the form's IMEI field", async () => {
    const imei = uniqueImei();
    await listed(typed({ imei }));
    const res = await list(typed({ imei }), otherSeller.bearer);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: 'IMEI: This phone is already listed',
      fields: { imei: 'IMEI: This phone is already listed' },
    });
  });
});

describe('editing a listing', () => {
  it('changes its fields as typed while it is for sale, and sets updated_at', async () => {
    const id = await listed();
    const model = uniqueModel();
    const res = await put(id, edit({ modelName: model, timeUsed: '2 yrs', batteryHealth: '90%' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ acknowledged: true });
    expect(await publicProduct(id)).toMatchObject({
      modelName: model,
      timeUsed: 24,
      batteryHealth: 90,
      resellPrice: 1200,
    });
    const [row] = await t.database.db.select().from(products).where(eq(products.id, id));
    expect(row?.updatedAt).toBeInstanceOf(Date);
  });

  it('keeps the old price to show struck through after a drop, and clears it after a raise', async () => {
    const id = await listed();
    expect((await publicProduct(id)).previousPrice).toBeNull();
    expect((await put(id, edit({ resellPrice: '$1,100' }))).statusCode).toBe(200);
    expect(await publicProduct(id)).toMatchObject({ resellPrice: 1100, previousPrice: 1200 });
    expect(
      (await put(id, edit({ resellPrice: '1,100', description: 'Same price' }))).statusCode,
    ).toBe(200);
    expect(await publicProduct(id)).toMatchObject({ resellPrice: 1100, previousPrice: 1200 });
    expect((await put(id, edit({ resellPrice: '1,250' }))).statusCode).toBe(200);
    expect(await publicProduct(id)).toMatchObject({ resellPrice: 1250, previousPrice: null });
  });

  it('shows a drop against the lowest price of the 30 days before it: a raise for a moment invents no discount', async () => {
    const id = await listed();
    // Listed at $1,200 forty days ago.
    await t.database.db
      .update(priceHistory)
      .set({ setAt: new Date(Date.now() - 40 * DAY_MS) })
      .where(eq(priceHistory.productId, id));
    expect((await put(id, edit({ resellPrice: '1,600' }))).statusCode).toBe(200);
    expect((await put(id, edit({ resellPrice: '900' }))).statusCode).toBe(200);
    expect(await publicProduct(id)).toMatchObject({ resellPrice: 900, previousPrice: 1200 });
    // Lowered again below a recent lower price: shown against that lowest one.
    expect((await put(id, edit({ resellPrice: '1,000' }))).statusCode).toBe(200);
    expect((await publicProduct(id)).previousPrice).toBeNull();
    expect((await put(id, edit({ resellPrice: '850' }))).statusCode).toBe(200);
    expect(await publicProduct(id)).toMatchObject({ resellPrice: 850, previousPrice: 900 });
  });

  it('refuses a sold phone with 409 and changes nothing', async () => {
    const phone = await createProduct(t.database.db, await sellerRow(seller), { status: 'sold' });
    const res = await put(phone.id, edit({ resellPrice: 1 }));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/sold phone can no longer be edited/);
    expect((await publicProduct(phone.id)).resellPrice).toBe(phone.resellPriceCents / 100);
  });

  it('refuses a withdrawn phone until it is relisted', async () => {
    const id = await listed();
    expect((await post(`/api/products/${id}/withdraw`)).statusCode).toBe(200);
    const res = await put(id, edit());
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Relist this phone before editing it');
  });

  it('refuses to relist a listing from before the IMEI was required: it is listed anew (issue 29)', async () => {
    const old = await createProduct(t.database.db, await sellerRow(seller), {
      status: 'withdrawn',
    });
    const res = await post(`/api/products/${old.id}/relist`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/^IMEI: this listing has none/);
    expect(
      (await t.database.db.select().from(products).where(eq(products.id, old.id)))[0]?.status,
    ).toBe('withdrawn');
  });

  it("refuses someone else's phone (403), a stranger (401) and a missing phone (404)", async () => {
    const id = await listed();
    expect((await put(id, edit(), otherSeller.bearer)).statusCode).toBe(403);
    expect((await put(id, edit(), buyer.bearer)).statusCode).toBe(403);
    expect((await put(id, edit(), {})).statusCode).toBe(401);
    expect((await put(randomUUID(), edit())).statusCode).toBe(404);
  });

  it('names unreadable fields by their labels, and never changes the IMEI', async () => {
    const id = await listed();
    const res = await put(id, { ...edit({ resellPrice: '1,2,3' }), imei: uniqueImei() });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ resellPrice: expect.stringMatching(/^Resale price/) });
  });
});

describe('withdrawing and relisting', () => {
  const inCategory = async (id: string) =>
    (await t.app.inject({ url: '/api/category/05?limit=100' }))
      .json()
      .some((p: { _id: string }) => p._id === id);
  const inSearch = async (model: string) =>
    (await t.app.inject({ url: `/api/search?q=${encodeURIComponent(model)}` })).json().products
      .length > 0;
  const inAdvertised = async (id: string) =>
    (await t.app.inject({ url: '/api/advertise?limit=100' }))
      .json()
      .some((a: { advertiseId: string }) => a.advertiseId === id);
  const inSellerList = async (id: string) => {
    const sellerId = (await sellerRow(seller)).id;
    return (await t.app.inject({ url: `/api/sellers/${sellerId}/products?limit=100` }))
      .json()
      .some((p: { _id: string }) => p._id === id);
  };

  it('takes a phone off every public list and brings it back', async () => {
    const model = uniqueModel();
    const id = await listed(typed({ modelName: model }));
    expect((await post(`/api/advertise?id=${id}`)).statusCode).toBe(200);
    expect([
      await inCategory(id),
      await inSearch(model),
      await inAdvertised(id),
      await inSellerList(id),
    ]).toEqual([true, true, true, true]);

    const withdrawn = await post(`/api/products/${id}/withdraw`);
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect([
      await inCategory(id),
      await inSearch(model),
      await inAdvertised(id),
      await inSellerList(id),
    ]).toEqual([false, false, false, false]);
    // Its own page says so; its seller still sees it.
    expect((await publicProduct(id)).status).toBe('withdrawn');
    expect((await mine()).find((p) => p._id === id)?.status).toBe('withdrawn');

    expect((await post(`/api/products/${id}/relist`)).statusCode).toBe(200);
    expect([
      await inCategory(id),
      await inSearch(model),
      await inAdvertised(id),
      await inSellerList(id),
    ]).toEqual([true, true, true, true]);
  });

  it("is the admin's too: a listing taken off every public list, not by a buyer (issue 29)", async () => {
    const model = uniqueModel();
    const id = await listed(typed({ modelName: model }));
    expect((await post(`/api/products/${id}/withdraw`, buyer.bearer)).statusCode).toBe(403);
    expect((await post(`/api/products/${id}/withdraw`, otherSeller.bearer)).statusCode).toBe(403);
    expect(await inSearch(model)).toBe(true);
    const res = await post(`/api/products/${id}/withdraw`, admin.bearer);
    expect(res.statusCode, res.body).toBe(200);
    expect([await inCategory(id), await inSearch(model), await inSellerList(id)]).toEqual([
      false,
      false,
      false,
    ]);
    // The seller sees it withdrawn, and relisting is theirs alone.
    expect((await mine()).find((p) => p._id === id)?.status).toBe('withdrawn');
    expect((await post(`/api/products/${id}/relist`, admin.bearer)).statusCode).toBe(403);
  });

  it('refuses to book a withdrawn phone with a clear message', async () => {
    const id = await listed();
    await post(`/api/products/${id}/withdraw`);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/order',
      headers: buyer.bearer,
      payload: { productId: id, location: 'Cafe', number: '+1 555 0100' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('This phone is no longer listed: its seller withdrew it');
  });

  it('refuses a sold phone, a second withdraw and a relist of a phone for sale (409)', async () => {
    const sold = await createProduct(t.database.db, await sellerRow(seller), { status: 'sold' });
    expect((await post(`/api/products/${sold.id}/withdraw`)).statusCode).toBe(409);
    expect((await post(`/api/products/${sold.id}/relist`)).statusCode).toBe(409);
    const id = await listed();
    expect((await post(`/api/products/${id}/relist`)).statusCode).toBe(409);
    await post(`/api/products/${id}/withdraw`);
    expect((await post(`/api/products/${id}/withdraw`)).statusCode).toBe(409);
  });

  it("refuses someone else's phone (403), a stranger (401) and a missing phone (404)", async () => {
    const id = await listed();
    for (const action of ['withdraw', 'relist']) {
      expect((await post(`/api/products/${id}/${action}`, otherSeller.bearer)).statusCode).toBe(
        403,
      );
      expect((await post(`/api/products/${id}/${action}`, {})).statusCode).toBe(401);
      expect((await post(`/api/products/${randomUUID()}/${action}`)).statusCode).toBe(404);
    }
  });

  it('refuses to relist a phone whose IMEI is live on another listing', async () => {
    const imei = uniqueImei();
    const first = await listed(typed({ imei }));
    await post(`/api/products/${first}/withdraw`);
    // Withdrawn, its IMEI may be listed again (by anyone).
    const res = await list(typed({ imei }), otherSeller.bearer);
    expect(res.statusCode, res.body).toBe(200);
    const relisted = await post(`/api/products/${first}/relist`);
    expect(relisted.statusCode).toBe(409);
    expect(relisted.json()).toEqual({
      message: 'IMEI: This phone is already listed',
      fields: { imei: 'IMEI: This phone is already listed' },
    });
  });

  it('refuses to relist a phone whose IMEI was blocked', async () => {
    const imei = uniqueImei();
    const id = await listed(typed({ imei }));
    await post(`/api/products/${id}/withdraw`);
    await insertBlockedImei(t.database.db, {
      hash: t.app.imeiVault.hash(imei),
      last4: imei.slice(-4),
      reason: 'Reported stolen',
      blockedBy: admin.id,
    });
    const res = await post(`/api/products/${id}/relist`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/^IMEI: /);
  });

  it('deletes a withdrawn phone as any other', async () => {
    const id = await listed();
    await post(`/api/products/${id}/withdraw`);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/products?id=${id}`,
      headers: seller.bearer,
    });
    expect(res.json()).toEqual({ deletedCount: 1 });
  });
});

describe('advertising', () => {
  const stop = (id: string, headers: Record<string, string> = seller.bearer) =>
    t.app.inject({ method: 'DELETE', url: `/api/advertise?id=${id}`, headers });

  it('shows advertised phones in My Products, and stops advertising one', async () => {
    const id = await listed();
    expect((await mine()).find((p) => p._id === id)?.advertised).toBe(false);
    const ad = await post(`/api/advertise?id=${id}`);
    expect(ad.json(), ad.body).toEqual({ acknowledged: true });
    expect((await mine()).find((p) => p._id === id)?.advertised).toBe(true);

    expect((await stop(id)).json()).toEqual({ deletedCount: 1 });
    expect((await mine()).find((p) => p._id === id)?.advertised).toBe(false);
    const ads = (await t.app.inject({ url: '/api/advertise?limit=100' })).json();
    expect(JSON.stringify(ads)).not.toContain(id);
    // Not advertised: nothing to stop.
    expect((await stop(id)).json()).toEqual({ deletedCount: 0 });
  });

  it("refuses someone else's phone (403), a stranger (401), a missing one (404), a sold one (409)", async () => {
    const phone = await createProduct(t.database.db, await sellerRow(seller));
    await advertise(t.database.db, phone);
    expect((await stop(phone.id, otherSeller.bearer)).statusCode).toBe(403);
    expect((await stop(phone.id, {})).statusCode).toBe(401);
    expect((await stop(randomUUID())).statusCode).toBe(404);
    const sold = await createProduct(t.database.db, await sellerRow(seller), { status: 'sold' });
    expect((await stop(sold.id)).statusCode).toBe(409);
  });
});

describe('a sold phone with its sale in progress', () => {
  it('can be neither edited nor withdrawn', async () => {
    const phone = await createProduct(t.database.db, await sellerRow(seller), { status: 'sold' });
    await t.database.db.insert(orders).values({
      buyerId: buyer.id,
      email: buyer.email,
      userName: 'Buyer',
      productId: phone.id,
      productName: phone.modelName,
      image: phone.image,
      priceCents: phone.resellPriceCents,
      location: 'Cafe',
      number: '+1 555 0100',
      status: 'paid',
      stage: 'paid',
    });
    expect((await put(phone.id, edit())).statusCode).toBe(409);
    expect((await post(`/api/products/${phone.id}/withdraw`)).statusCode).toBe(409);
  });
});

describe('un-verifying a seller', () => {
  const unverify = (email: string, headers: Record<string, string> = admin.bearer) =>
    t.app.inject({ method: 'DELETE', url: `/api/users/${email}/verified`, headers });
  const statusOf = async (email: string) =>
    (await t.database.db.select().from(users).where(eq(users.email, email)))[0]?.userStatus;

  it('takes the verification back, once', async () => {
    const account = await createAccount(t.app, 'seller');
    await t.app.inject({
      method: 'PUT',
      url: `/api/users/${account.email}`,
      headers: admin.bearer,
    });
    expect(await statusOf(account.email)).toBe('verified');
    expect((await unverify(account.email)).json()).toEqual({ modifiedCount: 1 });
    expect(await statusOf(account.email)).toBeNull();
    expect((await unverify(account.email)).json()).toEqual({ modifiedCount: 0 });
  });

  it('is for an admin only, and for sellers only', async () => {
    const account = await createAccount(t.app, 'seller');
    expect((await unverify(account.email, seller.bearer)).statusCode).toBe(403);
    expect((await unverify(account.email, {})).statusCode).toBe(401);
    expect((await unverify(buyer.email)).statusCode).toBe(404);
  });
});
