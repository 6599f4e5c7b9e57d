/**
 * Blocked IMEIs (issue 19, decision 024): the admin blocks an IMEI reported stolen, which
 * withdraws its listings for sale whoever's they are, keeps a sale in progress going, refuses new
 * listings of it; lifting a block relists nothing. And the IMEI is seen whole by its seller only:
 * public pages, the search, a sale before payment and the database's rows carry at most its last
 * four digits.
 */
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockedImeis, orders, products, users } from '../../src/server/db/schema';
import { type Account, createAccount, createAdmin } from '../helpers/accounts';
import { buyingCalls } from '../helpers/buying';
import {
  createProduct,
  createSale,
  createSeller,
  uniqueImei,
  uniqueWord,
} from '../helpers/factories';
import { fingerprint } from '../helpers/fingerprint';
import { storedPhoto } from '../helpers/multipart';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const CARD = { number: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' };
let PHOTO: string;
let t: TestApp;
let seller: Account;
let otherSeller: Account;
let buyer: Account;
let admin: Account;
const { intentFor, confirmCard } = buyingCalls(() => ({ t, seller }));

beforeAll(async () => {
  t = await buildTestApp();
  [seller, otherSeller, buyer, admin] = await Promise.all([
    createAccount(t.app, 'seller'),
    createAccount(t.app, 'seller'),
    createAccount(t.app, 'user'),
    createAdmin(t.app),
  ]);
  PHOTO = await storedPhoto(t.app, seller.bearer);
});
afterAll(() => t.close());

const call = (
  who: Account | null,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: object,
) =>
  t.app.inject({
    method,
    url,
    ...(who ? { headers: who.bearer } : {}),
    ...(payload ? { payload } : {}),
  });

let models = 0;
/** Lists a phone through the API as `who`, with `imei` as typed; the answer. */
const list = (who: Account, imei: string | undefined, modelName = `Trusty ${++models}`) =>
  call(who, 'POST', '/api/products', {
    categoryId: '02',
    modelName,
    image: PHOTO,
    originalPrice: 799,
    resellPrice: 450.5,
    location: 'Austin, TX',
    description: 'Clean, with box.',
    timeUsed: 14,
    condition: 'Good',
    sellerNumber: '+1 512 555 0100',
    specificatons: { ram: '8 GB', storage: '128 GB', color: 'Black', battery: 4000 },
    ...(imei === undefined ? {} : { imei }),
  });

async function listed(who: Account, imei: string, modelName?: string): Promise<string> {
  const res = await list(who, imei, modelName);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().insertedId as string;
}

const block = (imei: string, reason = 'Reported stolen by its owner', who: Account = admin) =>
  call(who, 'POST', '/api/imeis/blocked', { imei, reason });

const productRow = async (id: string) =>
  (await t.database.db.select().from(products).where(eq(products.id, id)))[0];
const statusOf = async (id: string) => (await productRow(id))?.status;

async function sellerRow(account: Account) {
  const [row] = await t.database.db.select().from(users).where(eq(users.email, account.email));
  return row as typeof users.$inferSelect;
}

/** Every blocked IMEI the admin's list holds, following its pages. */
async function allBlocked(limit = 2) {
  const items: { _id: string; imeiLast4: string; reason: string; blockedAt: string }[] = [];
  let url: string | null = `/api/imeis/blocked?limit=${limit}`;
  while (url) {
    const res = await call(admin, 'GET', url);
    expect(res.statusCode).toBe(200);
    items.push(...res.json());
    // A path: the test app has no PUBLIC_URL.
    const link = res.headers.link as string | undefined;
    url = (link && /<([^>]+)>;\s*rel="next"/.exec(link)?.[1]) || null;
  }
  return items;
}

describe('blocking an IMEI', () => {
  it("withdraws its listing for sale, whoever's it is, and answers how many", async () => {
    const imei = uniqueImei();
    // The same phone sold and handed over by one seller before, resold now by another.
    const before = await createProduct(t.database.db, await sellerRow(seller), {
      status: 'sold',
      ...keptFields(imei),
    });
    const live = await listed(otherSeller, imei);
    const unrelated = await listed(otherSeller, uniqueImei());

    const res = await block(imei);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ acknowledged: true, withdrawnCount: 1 });
    expect(await statusOf(live)).toBe('withdrawn');
    expect(await statusOf(before.id)).toBe('sold');
    expect(await statusOf(unrelated)).toBe('available');

    // Off every public list, and in its seller's My Products as withdrawn.
    const brand = (await call(null, 'GET', '/api/category/02?limit=100')).json();
    expect(brand.map((p: { _id: string }) => p._id)).not.toContain(live);
    const searched = (await call(null, 'GET', '/api/search?brand=02&includeSold=true&limit=100'))
      .json()
      .products.map((p: { _id: string }) => p._id);
    expect(searched).not.toContain(live);
    expect(searched).toContain(unrelated);
    const own = (await call(otherSeller, 'GET', `/api/products?email=${otherSeller.email}`)).json();
    // It says why, so My Products offers no Relist; the seller's other phone is not blocked.
    expect(own.find((p: { _id: string }) => p._id === live)).toMatchObject({
      status: 'withdrawn',
      imei,
      imeiBlocked: true,
    });
    expect(own.find((p: { _id: string }) => p._id === unrelated)).toMatchObject({
      imeiBlocked: false,
    });
  });

  it('answers a count of 0 when nobody lists it, and stores the block all the same', async () => {
    const imei = uniqueImei();
    const res = await block(imei, 'Carrier blacklist');
    expect(res.json()).toEqual({ acknowledged: true, withdrawnCount: 0 });
    expect((await allBlocked(100)).map((b) => b.imeiLast4)).toContain(imei.slice(-4));
  });

  it('takes the IMEI as people type it: spaces and dashes between groups', async () => {
    const imei = uniqueImei();
    const live = await listed(seller, imei);
    const typed = `${imei.slice(0, 2)}-${imei.slice(2, 8)} ${imei.slice(8, 14)}/${imei.slice(14)}`;
    expect((await block(typed)).json().withdrawnCount).toBe(1);
    expect(await statusOf(live)).toBe('withdrawn');
  });

  it('refuses an IMEI that is not one, with the reason in words', async () => {
    const imei = uniqueImei();
    const wrongCheckDigit = `${imei.slice(0, 14)}${(Number(imei[14]) + 1) % 10}`;
    for (const [typed, message] of [
      [wrongCheckDigit, /mistyped/],
      ['1234', /15 digits/],
      ['35209900176148x', /only digits/],
    ] as const) {
      const res = await block(typed);
      expect(res.statusCode, typed).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect((await block(uniqueImei(), '')).statusCode).toBe(400);
  });

  it('is a conflict for an IMEI blocked already, and changes nothing', async () => {
    const imei = uniqueImei();
    expect((await block(imei, 'First report')).statusCode).toBe(200);
    const again = await block(imei, 'Second report');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(
      /^IMEI: this IMEI is already blocked \(since [A-Z][a-z]{2} \d{1,2}, \d{4}\)$/,
    );
    const mine = (await allBlocked(100)).filter((b) => b.imeiLast4 === imei.slice(-4));
    expect(mine.map((b) => b.reason)).toContain('First report');
    expect(mine.map((b) => b.reason)).not.toContain('Second report');
  });

  it('lets a sale in progress go on; cancelled, the phone comes back withdrawn', async () => {
    const imei = uniqueImei();
    const productId = await listed(seller, imei);
    const orderId = await book(buyer, productId);
    const { clientSecret } = (await intentFor(buyer, orderId)).json();
    expect((await confirmCard(clientSecret, CARD)).json().paymentIntent.status).toBe(
      'requires_capture',
    );

    expect((await block(imei)).json()).toEqual({ acknowledged: true, withdrawnCount: 0 });
    expect(await statusOf(productId)).toBe('sold');
    const sale = (await call(buyer, 'GET', `/api/orders/${orderId}`)).json();
    expect(sale).toMatchObject({ stage: 'paid', imeiLast4: imei.slice(-4) });
    expect(sale.actions).toContain('cancel');

    expect((await call(buyer, 'POST', `/api/orders/${orderId}/cancel`)).statusCode).toBe(200);
    expect(await statusOf(productId)).toBe('withdrawn');
  });
});

describe('a blocked IMEI', () => {
  it('cannot be listed by anyone (409), however it is typed', async () => {
    const imei = uniqueImei();
    await block(imei);
    for (const [who, typed] of [
      [seller, imei],
      [otherSeller, `${imei.slice(0, 8)} ${imei.slice(8)}`],
    ] as const) {
      const res = await list(who, typed);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('IMEI: this phone was reported stolen and cannot be listed');
    }
  });

  it('cannot be listed again by leaving the IMEI out: every listing needs one (issue 29)', async () => {
    const imei = uniqueImei();
    await listed(seller, imei);
    expect((await block(imei)).statusCode).toBe(200);
    const before = await fingerprint(t.database.db);
    const res = await list(seller, undefined);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ imei: expect.stringMatching(/^IMEI: /) });
    expect(await fingerprint(t.database.db)).toEqual(before);
  });

  it('cannot be relisted by its seller', async () => {
    const imei = uniqueImei();
    const productId = await listed(seller, imei);
    await block(imei);
    const res = await call(seller, 'POST', `/api/products/${productId}/relist`);
    expect(res.statusCode).toBe(409);
    expect(await statusOf(productId)).toBe('withdrawn');
  });
});

describe('unblocking', () => {
  it('relists nothing, and lets the IMEI be listed again', async () => {
    const imei = uniqueImei();
    const withdrawn = await listed(seller, imei);
    await block(imei);
    const [entry] = (await allBlocked(100)).filter((b) => b.imeiLast4 === imei.slice(-4));
    const res = await call(admin, 'DELETE', `/api/imeis/blocked/${entry?._id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ deletedCount: 1 });
    expect(await statusOf(withdrawn)).toBe('withdrawn');
    expect((await allBlocked(100)).map((b) => b._id)).not.toContain(entry?._id);
    await listed(otherSeller, imei);
  });

  it('answers 404 for an IMEI not blocked, or blocked no more', async () => {
    const res = await call(admin, 'DELETE', `/api/imeis/blocked/${crypto.randomUUID()}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('This IMEI is not blocked');
    expect((await call(admin, 'DELETE', '/api/imeis/blocked/not-an-id')).statusCode).toBe(400);
  });
});

describe('the list of blocked IMEIs', () => {
  it('is newest first, a page at a time with a Link to the next, with no IMEI in it', async () => {
    const imeis = [uniqueImei(), uniqueImei(), uniqueImei()];
    for (const [i, imei] of imeis.entries()) await block(imei, `Report ${i}`);
    const first = await call(admin, 'GET', '/api/imeis/blocked?limit=2');
    expect(first.json()).toHaveLength(2);
    expect(first.headers.link).toMatch(/rel="next"/);

    const all = await allBlocked(2);
    expect(new Set(all.map((b) => b._id)).size).toBe(all.length);
    const mine = all.filter((b) => /^Report \d$/.test(b.reason));
    expect(mine.map((b) => b.reason)).toEqual(['Report 2', 'Report 1', 'Report 0']);
    expect(mine.map((b) => b.imeiLast4)).toEqual(imeis.map((i) => i.slice(-4)).reverse());
    for (const b of mine) {
      expect(Object.keys(b).sort()).toEqual(['_id', 'blockedAt', 'imeiLast4', 'reason']);
      expect(Number.isNaN(Date.parse(b.blockedAt))).toBe(false);
    }
    const body = JSON.stringify(all);
    for (const imei of imeis) expect(body).not.toContain(imei);
  });
});

describe('only admins', () => {
  it.each([
    ['list', 'GET', '/api/imeis/blocked', undefined],
    ['block', 'POST', '/api/imeis/blocked', { imei: '490154203237518', reason: 'x' }],
    ['unblock', 'DELETE', `/api/imeis/blocked/${crypto.randomUUID()}`, undefined],
  ] as const)('%s: 401 signed out, 403 for a seller or a buyer', async (_, method, url, body) => {
    expect((await call(null, method, url, body)).statusCode).toBe(401);
    expect((await call(seller, method, url, body)).statusCode).toBe(403);
    expect((await call(buyer, method, url, body)).statusCode).toBe(403);
  });
});

describe('who sees an IMEI', () => {
  it('whole: its seller in My Products; anybody else at most its last four digits', async () => {
    const imei = uniqueImei();
    const modelName = `Private ${uniqueWord()}`;
    const productId = await listed(seller, imei, modelName);
    const carries = (body: string) => body.includes(imei);

    const own = await call(seller, 'GET', `/api/products?email=${seller.email}`);
    expect(own.json().find((p: { _id: string }) => p._id === productId).imei).toBe(imei);
    expect((await call(otherSeller, 'GET', `/api/products?email=${seller.email}`)).statusCode).toBe(
      403,
    );

    const page = await call(null, 'GET', `/api/products/${productId}`);
    expect(page.json().product).toMatchObject({ imeiChecked: true });
    expect(page.json().product).not.toHaveProperty('imei');
    for (const res of [
      page,
      await call(null, 'GET', `/api/search?q=${encodeURIComponent(modelName)}`),
      await call(null, 'GET', '/api/category/02?limit=100'),
      await call(buyer, 'GET', `/api/products/${productId}`),
    ])
      expect(carries(res.body), res.body.slice(0, 200)).toBe(false);

    // A buyer sees no digit before paying, the last four after; the seller and an admin, those four.
    const orderId = await book(buyer, productId);
    const booked = await call(buyer, 'GET', `/api/orders/${orderId}`);
    expect(booked.json().imeiLast4).toBeNull();
    expect(carries(booked.body)).toBe(false);
    const { clientSecret } = (await intentFor(buyer, orderId)).json();
    await confirmCard(clientSecret, CARD);
    for (const who of [buyer, seller, admin]) {
      const sale = await call(who, 'GET', `/api/orders/${orderId}`);
      expect(sale.json().imeiLast4).toBe(imei.slice(-4));
      expect(carries(sale.body)).toBe(false);
    }
    const mySales = await call(seller, 'GET', '/api/sales');
    expect(carries(mySales.body)).toBe(false);
  });

  it('the database keeps no digit of it beyond the last four, hashed under a key', async () => {
    const imei = uniqueImei();
    const productId = await listed(seller, imei);
    await block(imei);
    const product = await productRow(productId);
    const [blocked] = await t.database.db
      .select()
      .from(blockedImeis)
      .where(eq(blockedImeis.imeiHash, t.app.imeiVault.hash(imei)));
    expect(product?.imeiLast4).toBe(imei.slice(-4));
    expect(blocked?.imeiHash).toBe(product?.imeiHash);
    const plainHashes = ['sha256', 'sha1', 'md5'].map((a) =>
      createHash(a).update(imei).digest('hex'),
    );
    for (const row of [product, blocked]) {
      const stored = JSON.stringify(row);
      // No eight of its digits in a row (a row's own numbers, ids and times have at most five),
      // nor a plain hash of it.
      for (let start = 0; start + 8 <= imei.length; start++)
        expect(stored).not.toContain(imei.slice(start, start + 8));
      for (const hash of plainHashes) expect(stored).not.toContain(hash);
    }
    const [order] = await t.database.db.select().from(orders).limit(1);
    expect(JSON.stringify(order ?? {})).not.toContain(imei);
  });
});

describe('what a buyer sees of a listing (issue 19)', () => {
  it("the card and the phone's page: IMEI checked, battery health, the drop and the price note", async () => {
    const db = t.database.db;
    const model = `Noted ${uniqueWord()}`;
    const me = await sellerRow(seller);
    // Five completed sales of the model at $300, $400, $500, $600, $700 by three sellers to five
    // buyers (what the notes need, decision 038): the median is $500.
    const sellers = [me, await createSeller(db), await createSeller(db)];
    for (const [i, cents] of [30_000, 40_000, 50_000, 60_000, 70_000].entries()) {
      const sold = await createProduct(db, sellers[i % 3] as typeof me, {
        modelName: model.toUpperCase(),
        status: 'sold',
        resellPriceCents: cents,
      });
      await createSale(db, sold);
    }
    const good = await createProduct(db, me, {
      modelName: model,
      categoryId: '03',
      resellPriceCents: 45_000,
      previousPriceCents: 52_000,
      batteryHealth: 92,
      ...keptFields(uniqueImei()),
    });
    const high = await createProduct(db, me, {
      modelName: model,
      categoryId: '03',
      resellPriceCents: 60_000,
    });
    const page = (await call(null, 'GET', `/api/products/${good.id}`)).json().product;
    expect(page).toMatchObject({
      imeiChecked: true,
      batteryHealth: 92,
      previousPrice: 520,
      resellPrice: 450,
      priceNote: 'good',
    });
    expect((await call(null, 'GET', `/api/products/${high.id}`)).json().product).toMatchObject({
      imeiChecked: false,
      batteryHealth: null,
      previousPrice: null,
      priceNote: 'high',
    });
    const cards = (await call(null, 'GET', '/api/category/03?limit=100')).json();
    expect(cards.find((p: { _id: string }) => p._id === good.id)).toMatchObject({
      imeiChecked: true,
      batteryHealth: 92,
      previousPrice: 520,
      priceNote: 'good',
    });
  });
});

async function book(who: Account, productId: string): Promise<string> {
  const res = await call(who, 'POST', '/api/order', {
    productId,
    location: 'City Library',
    number: '+1 303 555 0142',
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().insertedId as string;
}

/** The IMEI columns of a row written straight to the database, as the server keeps them. */
function keptFields(imei: string) {
  const { hash, last4, sealed } = t.app.imeiVault.keep(imei);
  return { imeiHash: hash, imeiLast4: last4, imeiSealed: sealed };
}
