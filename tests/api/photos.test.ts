/**
 * A phone's photos (issue 18): up to six, in order, the first the cover (`image`). Listed with the
 * phone, then reordered, added to and removed by its seller alone while it is unsold; every photo
 * is one our image hosts issued.
 */
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products, users } from '../../src/server/db/schema';
import { PRODUCT_PHOTOS_MAX } from '../../src/shared/constants';
import type { Product } from '../../src/shared/entities';
import { type Account, createAccount, createAdmin } from '../helpers/accounts';
import { advertise, createProduct, uniqueImei } from '../helpers/factories';
import { storedPhoto, uploadPhoto } from '../helpers/multipart';
import { buildTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
let seller: Account;
let otherSeller: Account;
let buyer: Account;
let admin: Account;
/** Three photos the image host stored, in the order they were uploaded. */
let uploaded: string[];
let more: string[];

/** A photo of its own colour, so each upload is stored under its own content hash. */
const photoOf = (background: string) =>
  sharp({ create: { width: 320, height: 240, channels: 3, background } })
    .jpeg()
    .toBuffer();

/** A URL shaped as our image host issues them, for lists longer than the uploads. */
const issuedUrl = (n: number) => `/images/${n.toString(16).padStart(32, '0')}-640.webp`;

beforeAll(async () => {
  t = await buildTestApp();
  [seller, otherSeller, buyer] = await Promise.all([
    createAccount(t.app, 'seller'),
    createAccount(t.app, 'seller'),
    createAccount(t.app, 'user'),
  ]);
  admin = await createAdmin(t.app);
  uploaded = [];
  for (const colour of ['#a33', '#3a3', '#33a']) {
    const res = await uploadPhoto(t.app, seller.bearer, await photoOf(colour));
    expect(res.statusCode, res.body).toBe(200);
    uploaded.push(res.json().data.url);
  }
  expect(new Set(uploaded).size).toBe(3);
  // Six more, for the most photos a phone takes: a listing names only photos the store has.
  more = [];
  for (const colour of ['#c81', '#1c8', '#81c', '#cc1', '#1cc', '#c1c'])
    more.push(await storedPhoto(t.app, seller.bearer, colour));
  expect(new Set([...uploaded, ...more]).size).toBe(9);
});
afterAll(() => t?.close());

const productInput = (photos: string[] | undefined, image = photos?.[0] ?? uploaded[0]) => ({
  categoryId: '05',
  modelName: 'Xiaomi 13',
  image,
  ...(photos ? { photos } : {}),
  originalPrice: 699,
  resellPrice: 399,
  location: 'Austin, TX',
  description: 'Three photos of it.',
  timeUsed: 5,
  condition: 'Good',
  sellerNumber: '+1 512 555 0100',
  specificatons: { ram: '8 GB', storage: '256 GB', color: 'Black', battery: 4500 },
  imei: uniqueImei(),
});

const addProduct = (body: object, headers = seller.bearer) =>
  t.app.inject({ method: 'POST', url: '/api/products', payload: body, headers });

const setPhotos = (id: string, photos: unknown, headers: Record<string, string> = seller.bearer) =>
  t.app.inject({ method: 'PUT', url: `/api/products/${id}/photos`, payload: { photos }, headers });

/** The phone as its brand's page lists it. */
async function listed(id: string, app = t.app): Promise<Product | undefined> {
  const res = await app.inject(`/api/category/05?limit=100`);
  expect(res.statusCode).toBe(200);
  return (res.json() as Product[]).find((p) => p._id === id);
}

const stored = async (id: string) =>
  (await t.database.db.select().from(products).where(eq(products.id, id)))[0];

const productCount = async () =>
  (await t.database.db.select({ id: products.id }).from(products)).length;

/** A phone of the seller's with the three uploaded photos, listed through the API. */
async function phoneWithPhotos(): Promise<string> {
  const res = await addProduct(productInput(uploaded));
  expect(res.statusCode, res.body).toBe(200);
  return res.json().insertedId;
}

describe('listing a phone with its photos', () => {
  it('keeps every photo in order, the first as the cover', async () => {
    const id = await phoneWithPhotos();
    expect(await listed(id)).toMatchObject({ image: uploaded[0], photos: uploaded });
  });

  it('gives a phone listed with one image, as the spec lists it, that photo alone', async () => {
    const res = await addProduct(productInput(undefined, uploaded[1]));
    expect(res.statusCode).toBe(200);
    expect(await listed(res.json().insertedId)).toMatchObject({
      image: uploaded[1],
      photos: [uploaded[1]],
    });
  });

  it.each([
    ['a photo from another host', () => [uploaded[0], 'https://evil.example/phone.jpg']],
    ['a photo path our host never issues', () => [uploaded[0], '/images/../secrets/key-640.webp']],
    ['a first photo that is not the image', () => [uploaded[1], uploaded[0]]],
    ['seven photos', () => Array.from({ length: 7 }, (_, i) => issuedUrl(i + 1))],
    ['a photo twice', () => [uploaded[0], uploaded[1], uploaded[1]]],
    ['no photo at all', () => []],
  ])('refuses %s with a 400 naming photos, and stores nothing', async (_name, photos) => {
    const before = await productCount();
    const res = await addProduct({ ...productInput(undefined, uploaded[0]), photos: photos() });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/photos/i);
    expect(await productCount()).toBe(before);
  });

  it('takes six photos, the most a phone has', async () => {
    const six = more.slice(0, PRODUCT_PHOTOS_MAX);
    const res = await addProduct(productInput(six));
    expect(res.statusCode).toBe(200);
    expect((await listed(res.json().insertedId))?.photos).toEqual(six);
  });
});

describe('PUT /api/products/:id/photos', () => {
  it('reorders the photos and the new first one becomes the cover on the brand page and the home page', async () => {
    const id = await phoneWithPhotos();
    await advertise(t.database.db, (await stored(id)) as typeof products.$inferSelect);
    const reordered = [uploaded[2], uploaded[0], uploaded[1]] as string[];
    const res = await setPhotos(id, reordered);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ acknowledged: true });
    expect(await listed(id)).toMatchObject({ image: uploaded[2], photos: reordered });
    const ad = (await t.app.inject('/api/advertise?limit=100'))
      .json()
      .find((a: { advertiseId: string }) => a.advertiseId === id);
    expect(ad.image).toBe(uploaded[2]);
  });

  it('removes a photo and adds another', async () => {
    const id = await phoneWithPhotos();
    const photos = [uploaded[0], uploaded[2], more[0]] as string[];
    expect((await setPhotos(id, photos)).statusCode).toBe(200);
    expect(await listed(id)).toMatchObject({ image: uploaded[0], photos });
    expect((await setPhotos(id, [uploaded[1]])).statusCode).toBe(200);
    expect(await listed(id)).toMatchObject({ image: uploaded[1], photos: [uploaded[1]] });
  });

  it.each([
    ['another seller', () => otherSeller.bearer, 403],
    ['a buyer', () => buyer.bearer, 403],
    ['an admin, who is no seller', () => admin.bearer, 403],
    ['a visitor without a token', () => ({}), 401],
  ])('is refused to %s and changes nothing', async (_name, headers, status) => {
    const id = await phoneWithPhotos();
    const res = await setPhotos(id, [uploaded[1]], headers());
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toEqual(expect.any(String));
    expect(await stored(id)).toMatchObject({ image: uploaded[0], photos: uploaded });
  });

  it('refuses a sold phone with a 409 that says why, and keeps its photos', async () => {
    const id = await phoneWithPhotos();
    await t.database.db.update(products).set({ status: 'sold' }).where(eq(products.id, id));
    const res = await setPhotos(id, [uploaded[1], uploaded[0]]);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('A sold phone keeps its photos; they can no longer be changed');
    expect(await stored(id)).toMatchObject({ image: uploaded[0], photos: uploaded });
  });

  it('answers 404 for a deleted phone', async () => {
    const id = await phoneWithPhotos();
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/products?id=${id}`,
      headers: seller.bearer,
    });
    expect(deleted.json()).toEqual({ deletedCount: 1 });
    const res = await setPhotos(id, [uploaded[1]]);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('No such product');
  });

  it('answers 400 for an id that cannot be one', async () => {
    const res = await setPhotos('not-an-id', [uploaded[1]]);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/id/);
  });

  it.each([
    ['a photo from another host', () => ['https://evil.example/phone.jpg']],
    ['a javascript: URL', () => [uploaded[0], 'javascript:alert(1)']],
    ['seven photos', () => Array.from({ length: 7 }, (_, i) => issuedUrl(i + 1))],
    ['a photo twice', () => [uploaded[0], uploaded[0]]],
    ['no photo at all', () => []],
    ['a list that is not one', () => uploaded[0]],
  ])('refuses %s with a 400 naming photos, and changes nothing', async (_name, photos) => {
    const id = await phoneWithPhotos();
    const res = await setPhotos(id, photos());
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/photos/i);
    expect(await stored(id)).toMatchObject({ image: uploaded[0], photos: uploaded });
  });

  it("changes a booked phone's photos, while the order keeps the photo the buyer booked", async () => {
    const id = await phoneWithPhotos();
    const booked = await t.app.inject({
      method: 'POST',
      url: '/api/order',
      headers: buyer.bearer,
      payload: { productId: id, location: 'Cafe', number: '+1 555 0100' },
    });
    expect(booked.statusCode).toBe(200);
    expect((await setPhotos(id, [uploaded[1]])).statusCode).toBe(200);
    const orders = (
      await t.app.inject({ url: `/api/order?email=${buyer.email}`, headers: buyer.bearer })
    ).json();
    expect(orders.find((o: { productId: string }) => o.productId === id).image).toBe(uploaded[0]);
  });
});

describe('with public answers kept for a minute (decision 015)', () => {
  let cached: TestApp;
  beforeAll(async () => {
    cached = await buildTestApp({ PUBLIC_CACHE_MS: '60000' });
  });
  afterAll(() => cached?.close());

  it('shows the new cover on the brand page at once after the seller changes it', async () => {
    const owner = await createAccount(cached.app, 'seller');
    const [row] = await cached.database.db.select().from(users).where(eq(users.email, owner.email));
    const phone = await createProduct(cached.database.db, row as typeof users.$inferSelect, {
      categoryId: '05',
      image: issuedUrl(1),
      photos: [issuedUrl(1), issuedUrl(2)],
    });
    expect((await listed(phone.id, cached.app))?.image).toBe(issuedUrl(1));
    const res = await cached.app.inject({
      method: 'PUT',
      url: `/api/products/${phone.id}/photos`,
      headers: owner.bearer,
      payload: { photos: [issuedUrl(2), issuedUrl(1)] },
    });
    expect(res.statusCode).toBe(200);
    expect(await listed(phone.id, cached.app)).toMatchObject({
      image: issuedUrl(2),
      photos: [issuedUrl(2), issuedUrl(1)],
    });
  });
});
