/**
 * Similar phones (issue 33, decision 050): `GET /api/products/:id/similar` answers up to six
 * phones for sale like one, of its model and storage first, then of its brand within ±30 % of
 * its price, the closest price first, then the newest; never the phone itself, a phone not for
 * sale or one of a removed or banned seller, and never a way to reach a seller.
 *
 * Each test prices its phones in a band of its own (a factor of ten apart), as every test of the
 * file shares one database and the brand's tier takes any phone of the brand in the band.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, type products } from '../../src/server/db/schema';
import { productSchema } from '../../src/shared/entities';
import { createAdmin } from '../helpers/accounts';
import { createProduct, createSeller, orderValues, uniqueWord } from '../helpers/factories';
import { buildTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const UNKNOWN_ID = '7b0a3c1e-0000-4000-8000-00000000dead';

async function similarTo(id: string) {
  const res = await t.app.inject({ method: 'GET', url: `/api/products/${id}/similar` });
  expect(res.statusCode).toBe(200);
  return { body: res.body, phones: productSchema.array().parse(res.json()) };
}

type Overrides = Partial<typeof products.$inferInsert>;
type Seller = Awaited<ReturnType<typeof createSeller>>;

/** A phone at `dollars`, of a fresh model unless given, of a seller of its own unless given. */
async function phone(dollars: number, overrides: Overrides = {}, seller?: Seller) {
  return createProduct(t.database.db, seller ?? (await createSeller(t.database.db)), {
    resellPriceCents: Math.round(dollars * 100),
    ...overrides,
  });
}

describe('GET /api/products/:id/similar', () => {
  it('answers the same model and storage first, then the brand within ±30 %, each by the closest price, then the newest', async () => {
    const model = `Galaxy ${uniqueWord()}`;
    const same = { modelName: model, storage: '256 GB', categoryId: '02' } as const;
    const shown = await phone(1000, same);
    // The model as another seller typed it (case and spaces differ): the same model.
    const respelled = await phone(1300, {
      ...same,
      modelName: model.toUpperCase().replace(' ', ''),
    });
    const cheaper = await phone(950, same);
    const older = await phone(1040, same);
    const newer = await phone(1040, same);
    // The brand in the band: another model, and the same model in another storage.
    const brandClose = await phone(1010, { categoryId: '02' });
    const otherStorage = await phone(1100, { ...same, storage: '128 GB' });
    // Out of the band, another brand, or a tier below six: not answered.
    await phone(1310, { categoryId: '02' });
    await phone(690, { categoryId: '02' });
    await phone(1000, { categoryId: '03' });

    const { phones } = await similarTo(shown.id);
    expect(phones.map((p) => p._id)).toEqual([
      newer.id,
      older.id,
      cheaper.id,
      respelled.id,
      brandClose.id,
      otherStorage.id,
    ]);
  });

  it('answers at most six, all of the model when it has six, however close the brand is', async () => {
    const same = { modelName: `Pixel ${uniqueWord()}`, categoryId: '03' } as const;
    const shown = await phone(10_000, same);
    const model = [];
    for (let i = 1; i <= 7; i++) model.push(await phone(10_000 + i * 500, same));
    await phone(10_000, { categoryId: '03' });

    const { phones } = await similarTo(shown.id);
    expect(phones.map((p) => p._id)).toEqual(model.slice(0, 6).map((p) => p.id));
  });

  it('never answers the phone itself or a phone sold or withdrawn, and answers for a sold phone too', async () => {
    const same = { modelName: `Nokia ${uniqueWord()}`, categoryId: '01' } as const;
    const shown = await phone(100_000, { ...same, status: 'sold' });
    await phone(100_100, { ...same, status: 'sold' });
    await phone(100_200, { ...same, status: 'withdrawn' });
    const forSale = await phone(100_300, same);

    const { phones } = await similarTo(shown.id);
    expect(phones.map((p) => p._id)).toEqual([forSale.id]);
    expect(phones[0]?.status).toBe('available');
  });

  it('answers a phone booked but not paid for, which is still for sale', async () => {
    const same = { modelName: `Moto ${uniqueWord()}`, categoryId: '01' } as const;
    const shown = await phone(1_000_000, same);
    const booked = await phone(1_000_100, same);
    const buyer = await createSeller(t.database.db, { type: 'user' });
    await t.database.db.insert(orders).values(orderValues(buyer, booked.id));

    const { phones } = await similarTo(shown.id);
    expect(phones.map((p) => p._id)).toEqual([booked.id]);
  });

  it("never answers a phone of a seller the admin banned, and never a seller's e-mail or number", async () => {
    const same = { modelName: `Xperia ${uniqueWord()}`, categoryId: '01' } as const;
    const shown = await phone(10_000_000, same);
    const banned = await createSeller(t.database.db);
    await phone(10_000_100, same, banned);
    const kept = await phone(10_000_200, same);
    const admin = await createAdmin(t.app);
    const ban = await t.app.inject({
      method: 'POST',
      url: '/api/users/banned',
      headers: admin.bearer,
      payload: { email: banned.email },
    });
    expect(ban.statusCode).toBe(200);

    const { body, phones } = await similarTo(shown.id);
    expect(phones.map((p) => p._id)).toEqual([kept.id]);
    expect(body).not.toContain('@test.example');
    expect(body).not.toContain('+1 512 555 0100');
    expect(body).not.toMatch(/"(email|sellerEmail|sellerNumber|number|imei)"/);
  });

  it('answers an empty list when nothing is like the phone', async () => {
    const shown = await phone(3_000, { categoryId: '01' });
    expect((await similarTo(shown.id)).phones).toEqual([]);
  });

  it('answers 404 for no such phone and 400 naming the id for a bad one', async () => {
    const missing = await t.app.inject({
      method: 'GET',
      url: `/api/products/${UNKNOWN_ID}/similar`,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'No such phone' });

    const bad = await t.app.inject({ method: 'GET', url: '/api/products/not-an-id/similar' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/id/);
  });
});
