import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advertisements, orders, products, wishListItems } from '../../src/server/db/schema';
import { productSchema } from '../../src/shared/entities';
import { type Account, createAccount, createAdmin } from '../helpers/accounts';
import { uniqueImei } from '../helpers/factories';
import { uploadPhoto } from '../helpers/multipart';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const ADMIN = 'selling-admin@test.example';
let t: TestApp;
let seller: Account;
let otherSeller: Account;
let buyer: Account;

beforeAll(async () => {
  t = await buildTestApp();
  [seller, otherSeller, buyer] = await Promise.all([
    createAccount(t.app, 'seller'),
    createAccount(t.app, 'seller'),
    createAccount(t.app, 'user'),
  ]);
});
afterAll(() => t.close());

const uploadsDir = () => path.join(t.dataDir, 'uploads');
const storedFiles = async () => (await readdir(uploadsDir()).catch(() => [])).length;

const jpegWithGps = () =>
  sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#6a4' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PhoneCo' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '47/1 36/1 0/1' },
    })
    .toBuffer();

const upload = (bytes: Buffer, filename: string, headers = seller.bearer) =>
  uploadPhoto(t.app, headers, bytes, filename, 'application/octet-stream');

async function uploadedImage(): Promise<string> {
  const res = await upload(await jpegWithGps(), 'phone.jpg');
  return res.json().data.url;
}

const validProduct = (image: string) => ({
  categoryId: '02',
  modelName: 'Galaxy S21',
  image,
  originalPrice: '799',
  resellPrice: '349.50',
  location: 'Austin, TX',
  description: 'Clean, with box.',
  timeUsed: '14',
  condition: 'Good',
  sellerNumber: '+1 512 555 0100',
  specificatons: { ram: '8 GB', storage: '128 GB', color: 'Black', battery: '4000' },
  imei: uniqueImei(),
});

async function addProduct(body: unknown, headers = seller.bearer) {
  return t.app.inject({ method: 'POST', url: '/api/products', payload: body as object, headers });
}

describe('the image host', () => {
  it("stores a seller's photo as WebP variants with the GPS block gone from every one", async () => {
    const res = await upload(await jpegWithGps(), 'holiday.photo.jpg');
    expect(res.statusCode).toBe(200);
    const { success, data } = res.json();
    expect(success).toBe(true);
    expect(data.url).toMatch(/^\/images\/[0-9a-f]{32}-640\.webp$/);
    const hash = /\/images\/([0-9a-f]+)-/.exec(data.url)?.[1];
    const variants = (await readdir(uploadsDir())).filter((f) => f.startsWith(hash ?? '-'));
    expect(variants).toHaveLength(3);
    for (const file of variants) {
      const meta = await sharp(await readFile(path.join(uploadsDir(), file))).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.exif).toBeUndefined();
    }
    const served = await t.app.inject(data.url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['cache-control']).toContain('immutable');
  });

  it('stores a PNG renamed .jpg as what it is', async () => {
    const png = await sharp({
      create: { width: 300, height: 200, channels: 3, background: '#123' },
    })
      .png()
      .toBuffer();
    const res = await upload(png, 'really-a-png.jpg');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.url).toMatch(/\.webp$/);
  });

  it.each([
    ['a text file renamed .png', Buffer.from('not an image at all'), 'notes.png'],
    [
      'an SVG',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      'x.svg',
    ],
    ['a GIF', Buffer.from('R0lGODlhAQABAAAAACw=', 'base64'), 'anim.gif'],
  ])('refuses %s with a clear message and stores nothing', async (_name, bytes, filename) => {
    const before = await storedFiles();
    const res = await upload(bytes, filename);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/JPEG, PNG or WebP/);
    expect(await storedFiles()).toBe(before);
  });

  it('refuses a photo over 10 MB', async () => {
    const res = await upload(Buffer.alloc(10 * 1024 * 1024 + 10, 1), 'huge.jpg');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/10 MB/);
  });

  it('takes photos from sellers only', async () => {
    const bytes = await jpegWithGps();
    expect((await upload(bytes, 'a.jpg', buyer.bearer)).statusCode).toBe(403);
    expect((await upload(bytes, 'a.jpg', {} as typeof seller.bearer)).statusCode).toBe(401);
  });
});

describe('POST /api/products', () => {
  it("lists a seller's phone with the seller, time and status set by the server", async () => {
    const image = await uploadedImage();
    const res = await addProduct({
      ...validProduct(image),
      email: 'someone@else.example',
      sellerName: 'Forged',
      status: 'sold',
    });
    expect(res.statusCode).toBe(200);
    const { acknowledged, insertedId } = res.json();
    expect(acknowledged).toBe(true);

    const listed = (await t.app.inject('/api/category/02?limit=100'))
      .json()
      .find((p: { _id: string }) => p._id === insertedId);
    expect(productSchema.parse(listed)).toMatchObject({
      sellerId: seller.id,
      sellerName: seller.name,
      status: 'available',
      resellPrice: 349.5,
      originalPrice: 799,
      timeUsed: 14,
      specificatons: { battery: 4000, ram: '8 GB', storage: '128 GB', color: 'Black' },
    });
    expect(Date.now() - new Date(listed.timeOfPost).getTime()).toBeLessThan(60_000);
  });

  it.each([
    ['categoryId', { categoryId: '06' }],
    ['ram', { specificatons: { ram: '3 GB', storage: '128 GB', color: 'Black', battery: 4000 } }],
    ['storage', { specificatons: { ram: '8 GB', storage: '1 TB', color: 'Black', battery: 4000 } }],
    [
      'battery',
      { specificatons: { ram: '8 GB', storage: '128 GB', color: 'Black', battery: '45.5' } },
    ],
    ['condition', { condition: 'Broken' }],
    ['resellPrice', { resellPrice: '-5' }],
    ['resellPrice', { resellPrice: '12.345' }],
    ['originalPrice', { originalPrice: 0 }],
    ['timeUsed', { timeUsed: 'two' }],
    ['modelName', { modelName: '   ' }],
    ['image', { image: 'https://evil.example/phone.jpg' }],
  ])(
    'refuses a bad %s with a 400 naming it in `fields`, and stores nothing',
    async (field, change) => {
      const image = await uploadedImage();
      const [before] = await t.database.db
        .select({ n: products.id })
        .from(products)
        .limit(1000)
        .then((r) => [r.length]);
      const res = await addProduct({ ...validProduct(image), ...change });
      expect(res.statusCode).toBe(400);
      // Issue 19: the message names the field by the form's label; `fields` keys it by its path.
      expect(Object.keys(res.json().fields ?? {}).join(' ')).toContain(field);
      const after = (await t.database.db.select({ n: products.id }).from(products).limit(1000))
        .length;
      expect(after).toBe(before);
    },
  );

  it('lets only sellers list phones', async () => {
    const image = await uploadedImage();
    expect((await addProduct(validProduct(image), buyer.bearer)).statusCode).toBe(403);
  });
});

describe("a seller's own products", () => {
  it('lists them newest first, and only to their seller', async () => {
    const image = await uploadedImage();
    const first = (await addProduct(validProduct(image))).json().insertedId;
    const second = (await addProduct({ ...validProduct(image), modelName: 'Newer' })).json()
      .insertedId;
    const res = await t.app.inject({
      url: `/api/products?email=${seller.email}`,
      headers: seller.bearer,
    });
    const ids = res.json().map((p: { _id: string }) => p._id);
    expect(ids.indexOf(second)).toBeLessThan(ids.indexOf(first));
    const other = await t.app.inject({
      url: `/api/products?email=${seller.email}`,
      headers: otherSeller.bearer,
    });
    expect(other.statusCode).toBe(403);
  });

  it('cannot be deleted or advertised by another seller', async () => {
    const id = (await addProduct(validProduct(await uploadedImage()))).json().insertedId;
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/products?id=${id}`,
      headers: otherSeller.bearer,
    });
    expect(del.statusCode).toBe(403);
    const ad = await t.app.inject({
      method: 'POST',
      url: `/api/advertise?id=${id}`,
      headers: otherSeller.bearer,
    });
    expect(ad.statusCode).toBe(403);
    expect(
      await t.database.db.select().from(advertisements).where(eq(advertisements.productId, id)),
    ).toHaveLength(0);
  });

  it('advertises an unsold phone once, and never a sold one', async () => {
    const id = (await addProduct(validProduct(await uploadedImage()))).json().insertedId;
    const first = await t.app.inject({
      method: 'POST',
      url: `/api/advertise?id=${id}`,
      headers: seller.bearer,
    });
    expect(first.json()).toEqual({ acknowledged: true });
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/advertise?id=${id}`,
      headers: seller.bearer,
    });
    expect(again.json()).toEqual({ acknowledged: false, message: 'Product is already advertised' });
    const ads = (await t.app.inject('/api/advertise?limit=100')).json();
    expect(ads.map((a: { advertiseId: string }) => a.advertiseId)).toContain(id);

    const soldId = (await addProduct(validProduct(await uploadedImage()))).json().insertedId;
    await t.database.db.update(products).set({ status: 'sold' }).where(eq(products.id, soldId));
    const sold = await t.app.inject({
      method: 'POST',
      url: `/api/advertise?id=${soldId}`,
      headers: seller.bearer,
    });
    expect(sold.statusCode).toBe(409);
    expect(sold.json().message).toMatch(/sold/);
  });

  it('deletes a phone everywhere but keeps what a buyer paid for', async () => {
    const image = await uploadedImage();
    const id = (await addProduct(validProduct(image))).json().insertedId;
    await t.app.inject({ method: 'POST', url: `/api/advertise?id=${id}`, headers: seller.bearer });
    await t.database.db.insert(wishListItems).values({ email: buyer.email, productId: id });
    const order = {
      email: buyer.email,
      userName: 'B',
      productId: id,
      productName: 'Galaxy S21',
      image,
      priceCents: 34950,
      location: 'Cafe',
      number: '1',
    };
    await t.database.db.insert(orders).values([
      { ...order, status: 'paid', stage: 'completed' },
      { ...order, email: otherSeller.email, status: 'unpaid' },
    ]);

    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/products?id=${id}`,
      headers: seller.bearer,
    });
    expect(res.json()).toEqual({ deletedCount: 1 });
    expect(
      (await t.app.inject('/api/category/02?limit=100')).json().map((p: { _id: string }) => p._id),
    ).not.toContain(id);
    expect(
      (await t.app.inject('/api/advertise?limit=100'))
        .json()
        .map((a: { advertiseId: string }) => a.advertiseId),
    ).not.toContain(id);
    expect(
      await t.database.db.select().from(wishListItems).where(eq(wishListItems.productId, id)),
    ).toHaveLength(0);
    const left = await t.database.db.select().from(orders).where(eq(orders.productId, id));
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({
      status: 'paid',
      productName: 'Galaxy S21',
      image,
      priceCents: 34950,
    });

    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/products?id=${id}`,
      headers: seller.bearer,
    });
    expect(again.statusCode).toBe(404);
  });

  it("lets an admin delete any seller's phone", async () => {
    const admin = await createAdmin(t.app, ADMIN);
    const id = (await addProduct(validProduct(await uploadedImage()))).json().insertedId;
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/products?id=${id}`,
      headers: admin.bearer,
    });
    expect(res.json()).toEqual({ deletedCount: 1 });
  });

  it('refuses a malformed id with a 400 naming it', async () => {
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/products?id=42',
      headers: seller.bearer,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/id/);
  });
});

describe('with an imgbb-compatible host configured', () => {
  let imgbb: TestApp;
  beforeAll(async () => {
    imgbb = await buildTestApp({
      IMGBB_API_KEY: 'key-123',
      IMGBB_IMAGE_ORIGIN: 'https://i.ibb.co',
    });
  });
  afterAll(() => imgbb.close());

  it('tells the client to upload there, with the key in the query', async () => {
    const config = (await imgbb.app.inject('/api/config')).json();
    expect(config.images).toEqual({
      provider: 'imgbb',
      uploadUrl: 'https://api.imgbb.com/1/upload?key=key-123',
    });
    expect(
      String((await imgbb.app.inject('/api/config')).headers['content-security-policy']),
    ).toContain("connect-src 'self' https://api.imgbb.com");
  });

  it("accepts that host's photos for a product, and still no other host's", async () => {
    const seller = await createAccount(imgbb.app, 'seller');
    const add = (image: string) =>
      imgbb.app.inject({
        method: 'POST',
        url: '/api/products',
        payload: validProduct(image),
        headers: seller.bearer,
      });
    expect((await add('https://i.ibb.co/abc123/phone.jpg')).statusCode).toBe(200);
    expect((await add('https://evil.example/phone.jpg')).statusCode).toBe(400);
    expect((await addProduct(validProduct('https://i.ibb.co/abc123/phone.jpg'))).statusCode).toBe(
      400,
    );
  });
});
