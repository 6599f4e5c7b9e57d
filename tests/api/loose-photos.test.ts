/**
 * Photos on no phone (issue 19, decision 026): a photo uploaded for a form given up, removed from
 * a phone, or left by a deleted phone is removed a day later, unless a phone or an order still
 * shows it; a form that names a removed photo is told to add it again.
 */
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loosePhotos, orders, products } from '../../src/server/db/schema';
import { PHOTO_GONE, PHOTO_UNKNOWN } from '../../src/server/images/loose-photos';
import { type Account, createAccount } from '../helpers/accounts';
import { orderValues, uniqueImei } from '../helpers/factories';
import { fingerprint } from '../helpers/fingerprint';
import { uploadPhoto } from '../helpers/multipart';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const HOUR_MS = 60 * 60 * 1000;
let t: TestApp;
let seller: Account;
let buyer: Account;
let colour = 0;

beforeAll(async () => {
  t = await buildTestApp();
  [seller, buyer] = await Promise.all([
    createAccount(t.app, 'seller'),
    createAccount(t.app, 'user'),
  ]);
});
afterAll(() => t?.close());

/** A photo of a colour no other test uses, so it is stored under a hash of its own. */
const newPhoto = () =>
  sharp({
    // Colours far apart: two near ones can encode to the same bytes (and the same name).
    create: {
      width: 64,
      height: 48,
      channels: 3,
      background: { r: (colour * 97) % 256, g: (colour * 53) % 256, b: (colour++ * 29) % 256 },
    },
  })
    .jpeg()
    .toBuffer();

async function upload(bytes?: Buffer): Promise<string> {
  const res = await uploadPhoto(t.app, seller.bearer, bytes ?? (await newPhoto()));
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.url;
}

/** Whether the image host still serves every width of the photo. */
async function served(url: string): Promise<boolean> {
  const widths = ['320', '640', '960'].map((w) => url.replace(/-\d+\.webp$/, `-${w}.webp`));
  const codes = await Promise.all(widths.map(async (u) => (await t.app.inject(u)).statusCode));
  expect(new Set(codes).size, `${url}: ${codes}`).toBe(1);
  return codes[0] === 200;
}

const hoursFromNow = (hours: number) => new Date(Date.now() + hours * HOUR_MS);
const sweep = (hours: number) => t.app.loosePhotos.sweep(t.database.db, hoursFromNow(hours));

const listing = (photos: string[]) => ({
  categoryId: '05',
  modelName: 'Xiaomi 12',
  image: photos[0],
  photos,
  originalPrice: 599,
  resellPrice: 299,
  location: 'Austin, TX',
  description: 'Its photos are kept.',
  timeUsed: 8,
  condition: 'Good',
  sellerNumber: '+1 512 555 0100',
  specificatons: { ram: '8 GB', storage: '128 GB', color: 'Blue', battery: 4500 },
  imei: uniqueImei(),
});

async function list(photos: string[]): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/products',
    payload: listing(photos),
    headers: seller.bearer,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().insertedId;
}

const setPhotos = (id: string, photos: string[]) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/products/${id}/photos`,
    payload: { photos },
    headers: seller.bearer,
  });

const noteOf = async (url: string) =>
  (await t.database.db.select().from(loosePhotos).where(eq(loosePhotos.url, url)))[0];

describe('a photo no phone takes', () => {
  it('stays for a day, as the seller may still be filling in the form, then is removed', async () => {
    const url = await upload();
    await sweep(23);
    expect(await served(url)).toBe(true);
    expect(await sweep(25)).toBeGreaterThanOrEqual(1);
    expect(await served(url)).toBe(false);
  });

  it('is refused by a form that still names it, which says to add it again; nothing is listed', async () => {
    const url = await upload();
    await sweep(25);
    const before = (await t.database.db.select({ id: products.id }).from(products)).length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/products',
      payload: listing([url]),
      headers: seller.bearer,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: PHOTO_GONE, fields: { image: PHOTO_GONE } });
    expect((await t.database.db.select({ id: products.id }).from(products)).length).toBe(before);
  });

  it('refuses a photo named as ours that our store never had (issue 29); nothing is listed', async () => {
    const real = await upload();
    const madeUp = '/images/0123456789abcdef0123456789abcdef-640.webp';
    const before = await fingerprint(t.database.db);
    for (const photos of [[madeUp], [real, madeUp]]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/products',
        payload: listing(photos),
        headers: seller.bearer,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: PHOTO_UNKNOWN });
    }
    expect(await fingerprint(t.database.db)).toEqual(before);
    // Nor on a phone listed already, while its own photos (shown for days) are kept.
    const id = await list([real]);
    await sweep(25);
    const set = (photos: string[]) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/products/${id}/photos`,
        payload: { photos },
        headers: seller.bearer,
      });
    expect((await set([real, madeUp])).statusCode).toBe(400);
    expect((await set([real])).statusCode).toBe(200);
  });

  it('comes back when uploaded again, and can then be listed', async () => {
    const bytes = await newPhoto();
    const url = await upload(bytes);
    await sweep(25);
    expect(await served(url)).toBe(false);
    expect(await upload(bytes)).toBe(url);
    expect(await served(url)).toBe(true);
    await list([url]);
    await sweep(50);
    expect(await served(url)).toBe(true);
  });
});

describe('a photo on a phone', () => {
  it('is kept, and its note forgotten once the sweep has seen the phone', async () => {
    const photos = [await upload(), await upload()];
    await list(photos);
    await sweep(25);
    for (const url of photos) {
      expect(await served(url)).toBe(true);
      expect(await noteOf(url)).toBeUndefined();
    }
  });

  it('taken off its phone is removed a day after, and the others stay', async () => {
    const [cover, removed] = [await upload(), await upload()];
    const id = await list([cover, removed]);
    await sweep(25);
    expect((await setPhotos(id, [cover])).statusCode).toBe(200);
    // The day's grace runs from the removal, not from the upload.
    expect(await sweep(23)).toBe(0);
    expect(await served(removed)).toBe(true);
    await sweep(25);
    expect(await served(removed)).toBe(false);
    expect(await served(cover)).toBe(true);
  });

  it('taken off one phone but shown on another is kept', async () => {
    const [a, shared] = [await upload(), await upload()];
    const first = await list([a, shared]);
    await list([shared]);
    expect((await setPhotos(first, [a])).statusCode).toBe(200);
    await sweep(25);
    expect(await served(shared)).toBe(true);
  });

  it('of a deleted phone is removed, unless an order still shows it', async () => {
    const [cover, other] = [await upload(), await upload()];
    const id = await list([cover, other]);
    // A sale's record shows the phone's cover, as booking copies it.
    await t.database.db
      .insert(orders)
      .values(orderValues(buyer, id, { image: cover, status: 'paid', stage: 'completed' }));
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/products?id=${id}`,
      headers: seller.bearer,
    });
    expect(res.statusCode, res.body).toBe(200);
    await sweep(25);
    expect(await served(cover)).toBe(true);
    expect(await served(other)).toBe(false);
  });
});

describe('the sweep and a save at the same moment', () => {
  it('never removes a photo a phone saved while the sweep waited', async () => {
    const url = await upload();
    // The save and the sweep race; whichever comes first, the photo is listed and served, or
    // refused with the message and removed: never listed without its files.
    const [saved] = await Promise.allSettled([list([url]), sweep(25)]);
    const listed = saved.status === 'fulfilled';
    expect(await served(url)).toBe(listed);
  });
});
