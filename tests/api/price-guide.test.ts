import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products, users } from '../../src/server/db/schema';
import { priceNoteOf } from '../../src/server/repositories/price-guide';
import { priceGuideSchema, productSchema } from '../../src/shared/entities';
import { type Account, createAccount } from '../helpers/accounts';
import { createProduct, createSale, uniqueWord } from '../helpers/factories';
import { buildTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
let seller: Account;
let buyer: Account;
let sellerRow: typeof users.$inferSelect;
type UserRow = typeof users.$inferSelect;
/** The sellers of past sales, in turn: a guide speaks only for several sellers (decision 038). */
let pastSellers: UserRow[];

const rowOf = async (account: Account) =>
  (
    await t.database.db.select().from(users).where(eq(users.email, account.email))
  )[0] as typeof users.$inferSelect;

beforeAll(async () => {
  t = await buildTestApp();
  const others = await Promise.all([1, 2, 3].map(() => createAccount(t.app, 'seller')));
  [seller, buyer] = await Promise.all([
    createAccount(t.app, 'seller'),
    createAccount(t.app, 'user'),
  ]);
  sellerRow = await rowOf(seller);
  pastSellers = await Promise.all(others.map(rowOf));
});
afterAll(() => t.close());

/** Whose turn it is to have sold the next phone, among the sellers `sales` takes in turn. */
let turn = 0;

/** A model name no other test uses. */
const newModel = () => `Pixel ${uniqueWord()}`;

type Phone = { modelName: string; storage?: string; condition?: string };

/** Sold phones like `phone`, one completed sale at each price (dollars), `daysAgo` old. */
async function sales(
  phone: Phone,
  prices: number[],
  options: {
    daysAgo?: number;
    stage?: 'completed' | 'cancelled' | 'refunded';
    /** The sellers to take in turn (three by default); each sale has a buyer of its own. */
    sellers?: (typeof users.$inferSelect)[];
    related?: boolean;
  } = {},
) {
  const sellers = options.sellers ?? pastSellers;
  for (const [i, price] of prices.entries()) {
    const product = await createProduct(
      t.database.db,
      sellers[turn++ % sellers.length] as typeof users.$inferSelect,
      {
        modelName: phone.modelName,
        storage: phone.storage ?? '128 GB',
        condition: phone.condition ?? 'Good',
        resellPriceCents: Math.round(price * 100),
      },
    );
    await createSale(t.database.db, product, {
      priceCents: Math.round(price * 100),
      daysAgo: options.daysAgo ?? 1 + i,
      stage: options.stage ?? 'completed',
      related: options.related ?? false,
    });
  }
}

async function guide(query: Record<string, string>, headers = seller.bearer) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/price-guide?${new URLSearchParams(query)}`,
    headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return priceGuideSchema.parse(res.json());
}

/** The note a buyer sees on a phone like `phone` listed at `price` dollars. */
async function noteOf(phone: Phone, price: number, status: 'available' | 'sold' = 'available') {
  const product = await createProduct(t.database.db, sellerRow, {
    modelName: phone.modelName,
    storage: phone.storage ?? '128 GB',
    condition: phone.condition ?? 'Good',
    resellPriceCents: Math.round(price * 100),
    status,
  });
  const res = await t.app.inject(`/api/products/${product.id}`);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  return productSchema.parse(body.product ?? body).priceNote;
}

describe('the price guide', () => {
  it('answers the median, range, count and sorted prices of an odd count', async () => {
    const modelName = newModel();
    await sales({ modelName }, [300, 100, 250.5, 200, 120]);
    const answer = await guide({ modelName, storage: '128 GB' });
    expect(answer).toEqual({
      basis: 'model-storage',
      days: 90,
      count: 5,
      median: 200,
      low: 100,
      high: 300,
      prices: [100, 120, 200, 250.5, 300],
    });
  });

  it('takes the middle of the two middle prices of an even count', async () => {
    const modelName = newModel();
    await sales({ modelName }, [100, 400, 201, 300]);
    const answer = await guide({ modelName, storage: '128 GB' });
    expect(answer.count).toBe(4);
    expect(answer.median).toBe(250.5);
    expect([answer.low, answer.high]).toEqual([100, 400]);
  });

  it('answers nothing until the sales are by three sellers to three buyers', async () => {
    const modelName = newModel();
    const [first, second, third] = pastSellers as [UserRow, UserRow, UserRow];
    await sales({ modelName }, [333.33, 340], { sellers: [first, second] });
    expect(await guide({ modelName, storage: '128 GB' })).toMatchObject({
      count: 0,
      median: null,
      prices: [],
    });
    // Three more sales, by one of the two: still two sellers.
    await sales({ modelName }, [335, 336, 337], { sellers: [first] });
    expect((await guide({ modelName, storage: '128 GB' })).count).toBe(0);
    await sales({ modelName }, [338], { sellers: [third] });
    expect(await guide({ modelName, storage: '128 GB' })).toMatchObject({
      count: 6,
      median: 336.5,
      low: 333.33,
      high: 340,
    });
  });

  it('answers a count of 0 and no figures when nothing sold', async () => {
    const answer = await guide({ modelName: newModel(), storage: '64 GB', condition: 'Fair' });
    expect(answer).toEqual({
      basis: 'model-storage',
      days: 90,
      count: 0,
      median: null,
      low: null,
      high: null,
      prices: [],
    });
  });

  it('counts only completed sales of the last 90 days of the same storage', async () => {
    const modelName = newModel();
    await sales({ modelName }, [200, 210, 215]);
    await sales({ modelName }, [999], { daysAgo: 91 });
    await sales({ modelName }, [1], { stage: 'cancelled' });
    await sales({ modelName }, [2], { stage: 'refunded' });
    await sales({ modelName, storage: '256 GB' }, [5000]);
    const answer = await guide({ modelName, storage: '128 GB' });
    expect(answer.prices).toEqual([200, 210, 215]);
    // A sale of 89 days counts.
    await sales({ modelName }, [220], { daysAgo: 89 });
    expect((await guide({ modelName, storage: '128 GB' })).prices).toEqual([200, 210, 215, 220]);
  });

  it('matches the model name ignoring case and spaces: iPhone14 is iPhone 14', async () => {
    const id = uniqueWord();
    await sales({ modelName: `Galaxy  S${id}   Ultra` }, [300]);
    await sales({ modelName: `galaxy s${id} ultra` }, [400]);
    await sales({ modelName: `GalaxyS${id}Ultra` }, [500]);
    const answer = await guide({ modelName: `  GALAXY S${id}\t ULTRA `, storage: '128 GB' });
    expect(answer.prices).toEqual([300, 400, 500]);
    expect((await guide({ modelName: `galaxys${id} ultra`, storage: '128 GB' })).prices).toEqual([
      300, 400, 500,
    ]);
  });

  it('uses the same condition once it has five sales of its own', async () => {
    const modelName = newModel();
    await sales({ modelName, condition: 'Fair' }, [100, 110, 120]);
    await sales({ modelName, condition: 'Flawless' }, [300, 310, 320, 330]);
    let answer = await guide({ modelName, storage: '128 GB', condition: 'Flawless' });
    expect(answer.basis).toBe('model-storage');
    expect(answer.count).toBe(7);
    await sales({ modelName, condition: 'Flawless' }, [340]);
    answer = await guide({ modelName, storage: '128 GB', condition: 'Flawless' });
    expect(answer).toMatchObject({
      basis: 'model-storage-condition',
      count: 5,
      median: 320,
      low: 300,
      high: 340,
      prices: [300, 310, 320, 330, 340],
    });
    // A condition with fewer, and no condition, take every condition.
    answer = await guide({ modelName, storage: '128 GB', condition: 'Fair' });
    expect(answer).toMatchObject({ basis: 'model-storage', count: 8 });
    answer = await guide({ modelName, storage: '128 GB' });
    expect(answer).toMatchObject({ basis: 'model-storage', count: 8, median: 305 });
  });

  it('leaves out prices beyond one and a half interquartile ranges of the quartiles', async () => {
    const modelName = newModel();
    await sales({ modelName }, [0.5, 490, 495, 500, 505, 510, 5000]);
    // Q1 492.5, Q3 507.5: the fences are 470 and 530.
    expect(await guide({ modelName, storage: '128 GB' })).toMatchObject({
      count: 5,
      median: 500,
      low: 490,
      high: 510,
      prices: [490, 495, 500, 505, 510],
    });
  });

  it('samples at most 200 prices evenly, the lowest and highest included', async () => {
    const modelName = newModel();
    const phones = await Promise.all(
      pastSellers.map((pastSeller) => createProduct(t.database.db, pastSeller, { modelName })),
    );
    // 251 sales of three phones is not real, but the guide counts sales, not phones.
    for (let cents = 10_000; cents <= 10_250; cents++)
      await createSale(t.database.db, phones[cents % 3] as (typeof phones)[number], {
        priceCents: cents,
      });
    const answer = await guide({ modelName, storage: '128 GB' });
    expect(answer.count).toBe(251);
    expect(answer.prices).toHaveLength(200);
    expect(answer.prices[0]).toBe(100);
    expect(answer.prices.at(-1)).toBe(102.5);
    expect(answer.prices).toEqual([...answer.prices].sort((a, b) => a - b));
    expect(new Set(answer.prices).size).toBe(200);
    expect(answer.median).toBe(101.25);
  });

  it('refuses a storage or condition that is not one of the options, and no model', async () => {
    for (const query of <Record<string, string>[]>[
      { modelName: 'Pixel 8', storage: '2 TB' },
      { modelName: 'Pixel 8', storage: '128 GB', condition: 'Mint' },
      { modelName: '   ', storage: '128 GB' },
      { storage: '128 GB' },
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/price-guide?${new URLSearchParams(query)}`,
        headers: seller.bearer,
      });
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
    }
  });

  it('is for sellers: 401 signed out, 403 for a buyer', async () => {
    const url = '/api/price-guide?modelName=Pixel%208&storage=128%20GB';
    expect((await t.app.inject(url)).statusCode).toBe(401);
    expect((await t.app.inject({ url, headers: buyer.bearer })).statusCode).toBe(403);
  });
});

describe("a card's price note", () => {
  it('needs five comparable sales: four give none, five give one', async () => {
    const modelName = newModel();
    await sales({ modelName }, [200, 200, 200, 200]);
    expect(await noteOf({ modelName }, 150)).toBeNull();
    await sales({ modelName }, [200]);
    expect(await noteOf({ modelName }, 150)).toBe('good');
  });

  it('says good at or below the median, high above 1.15 times it, nothing between', async () => {
    const modelName = newModel();
    await sales({ modelName }, [180, 190, 200, 210, 220]);
    expect(await noteOf({ modelName }, 200)).toBe('good');
    expect(await noteOf({ modelName }, 200.01)).toBeNull();
    expect(await noteOf({ modelName }, 230)).toBeNull();
    expect(await noteOf({ modelName }, 230.01)).toBe('high');
  });

  it('is only on phones for sale', async () => {
    const modelName = newModel();
    await sales({ modelName }, [200, 200, 200, 200, 200]);
    expect(await noteOf({ modelName }, 100, 'sold')).toBeNull();
    // A withdrawn phone is in no public list: the note's own subquery answers null for it.
    const noteOfRow = async (status: 'available' | 'withdrawn') => {
      const product = await createProduct(t.database.db, sellerRow, {
        modelName,
        resellPriceCents: 10_000,
        status,
      });
      const [row] = await t.database.db
        .select({ note: priceNoteOf() })
        .from(products)
        .where(eq(products.id, product.id));
      return row?.note;
    };
    expect(await noteOfRow('withdrawn')).toBeNull();
    expect(await noteOfRow('available')).toBe('good');
  });

  it('follows the same condition once it has five sales, like the guide', async () => {
    const modelName = newModel();
    await sales({ modelName, condition: 'Fair' }, [100, 100, 100, 100, 100]);
    await sales({ modelName, condition: 'Flawless' }, [300, 300, 300, 300, 300]);
    // Against every condition the median is 200; against its own condition 300 or 100.
    expect(await noteOf({ modelName, condition: 'Flawless' }, 290)).toBe('good');
    expect(await noteOf({ modelName, condition: 'Fair' }, 150)).toBe('high');
    // A condition with no sales of its own goes by every condition.
    expect(await noteOf({ modelName, condition: 'Good' }, 200)).toBe('good');
    expect(await noteOf({ modelName, condition: 'Good' }, 231)).toBe('high');
  });

  it('shows in the lists a buyer reads (the brand page, the search)', async () => {
    const modelName = newModel();
    await sales({ modelName }, [500, 500, 500, 500, 500]);
    const product = await createProduct(t.database.db, sellerRow, {
      modelName,
      resellPriceCents: 45_000,
    });
    const search = await t.app.inject(`/api/search?q=${encodeURIComponent(modelName)}`);
    expect(search.statusCode, search.body).toBe(200);
    const found = search.json().products.find((p: { _id: string }) => p._id === product.id);
    expect(found?.priceNote).toBe('good');
    const mine = await t.app.inject(`/api/sellers/${sellerRow.id}/products?limit=100`);
    expect(mine.statusCode, mine.body).toBe(200);
    const listed = mine.json().find((p: { _id: string }) => p._id === product.id);
    expect(listed?.priceNote).toBe('good');
    const brand = await t.app.inject('/api/category/01?limit=100');
    const onBrandPage = brand.json().find((p: { _id: string }) => p._id === product.id);
    expect(onBrandPage?.priceNote).toBe('good');
  });
});
