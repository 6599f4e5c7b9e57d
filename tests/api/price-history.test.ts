/**
 * A model's price history (issue 33, decision 051): its counted sales by week over 52 weeks, and
 * where a price stands against the last 90 days, never contradicting a card's price note.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { users } from '../../src/server/db/schema';
import { priceHistorySchema, productSchema } from '../../src/shared/entities';
import { createProduct, createSale, createSeller, uniqueWord } from '../helpers/factories';
import { buildTestApp, type TestApp } from '../helpers/test-app';

type UserRow = typeof users.$inferSelect;

let t: TestApp;
/** The sellers of past sales, taken in turn; every sale has a buyer of its own. */
let pastSellers: UserRow[];
/** The seller of the phones listed to read their notes. */
let lister: UserRow;

beforeAll(async () => {
  t = await buildTestApp();
  pastSellers = await Promise.all([1, 2, 3].map(() => createSeller(t.database.db)));
  lister = await createSeller(t.database.db);
});
afterAll(() => t.close());

const DAY = 24 * 60 * 60 * 1000;
const newModel = () => `Pixel ${uniqueWord()}`;

/** The Monday (UTC) of the week `weeksAgo` weeks before this one, as the answer names it. */
function mondayOf(weeksAgo: number): Date {
  const now = new Date();
  const monday = Date.UTC(
    now.getUTCFullYear(),
    now.getUTCMonth(),
    now.getUTCDate() - ((now.getUTCDay() + 6) % 7) - 7 * weeksAgo,
  );
  return new Date(monday);
}
const weekName = (weeksAgo: number) => mondayOf(weeksAgo).toISOString().slice(0, 10);
/** How many days ago the Wednesday noon of that week was. */
const wednesdayOf = (weeksAgo: number) =>
  (Date.now() - (mondayOf(weeksAgo).getTime() + 2.5 * DAY)) / DAY;

let turn = 0;

/** One completed sale at each price (dollars), by the sellers in turn, `daysAgo` old. */
async function sales(
  modelName: string,
  prices: number[],
  options: {
    daysAgo?: number;
    sellers?: UserRow[];
    related?: boolean;
    stage?: 'completed' | 'cancelled' | 'refunded';
    condition?: string;
    storage?: string;
  } = {},
) {
  const sellers = options.sellers ?? pastSellers;
  for (const [i, price] of prices.entries()) {
    const product = await createProduct(
      t.database.db,
      sellers[turn++ % sellers.length] as UserRow,
      {
        modelName,
        storage: options.storage ?? '128 GB',
        condition: options.condition ?? 'Good',
        resellPriceCents: Math.round(price * 100),
      },
    );
    await createSale(t.database.db, product, {
      priceCents: Math.round(price * 100),
      daysAgo: options.daysAgo ?? 1 + i,
      related: options.related ?? false,
      stage: options.stage ?? 'completed',
    });
  }
}

async function historyOf(query: Record<string, string>) {
  const res = await t.app.inject(`/api/price-guide/history?${new URLSearchParams(query)}`);
  expect(res.statusCode, res.body).toBe(200);
  return priceHistorySchema.parse(res.json());
}

/** The note a buyer reads on a phone of `modelName` listed at `price` dollars. */
async function noteOf(modelName: string, price: number) {
  const product = await createProduct(t.database.db, lister, {
    modelName,
    storage: '128 GB',
    condition: 'Good',
    resellPriceCents: Math.round(price * 100),
  });
  const res = await t.app.inject(`/api/products/${product.id}`);
  expect(res.statusCode, res.body).toBe(200);
  return productSchema.parse(res.json().product).priceNote;
}

describe('a model’s price history', () => {
  it('answers each week’s median, range and count of counted sales, oldest first', async () => {
    const modelName = newModel();
    await sales(modelName, [100, 110, 120], { daysAgo: wednesdayOf(10) });
    await sales(modelName, [200, 210], { daysAgo: wednesdayOf(4) });
    // One seller's sale alone in its week: no point of the chart, but it counts in the whole.
    await sales(modelName, [150], {
      daysAgo: wednesdayOf(2),
      sellers: [pastSellers[0] as UserRow],
    });
    const answer = await historyOf({ modelName, storage: '128 GB' });
    expect(answer).toMatchObject({ weeks: 52, count: 6, low: 100, high: 210 });
    expect(answer.points).toEqual([
      { week: weekName(10), count: 3, median: 110, low: 100, high: 120 },
      { week: weekName(4), count: 2, median: 205, low: 200, high: 210 },
    ]);
  });

  it('leaves out outliers, related accounts’ sales, ended sales and sales before 52 weeks', async () => {
    const modelName = newModel();
    await sales(modelName, [100, 110, 120], { daysAgo: wednesdayOf(10) });
    await sales(modelName, [200, 210], { daysAgo: wednesdayOf(4) });
    // Q1 110, Q3 205 of the seven: the fences are -32.5 and 347.5.
    await sales(modelName, [5000], { daysAgo: wednesdayOf(4) });
    await sales(modelName, [0.5, 0.5], { daysAgo: wednesdayOf(10), related: true });
    await sales(modelName, [1], { daysAgo: wednesdayOf(10), stage: 'cancelled' });
    await sales(modelName, [2], { daysAgo: wednesdayOf(10), stage: 'refunded' });
    await sales(modelName, [300, 300, 300], { daysAgo: wednesdayOf(52) });
    await sales(modelName, [999, 999, 999], { daysAgo: wednesdayOf(4), storage: '256 GB' });
    const answer = await historyOf({ modelName, storage: '128 GB' });
    expect(answer).toMatchObject({ count: 5, low: 100, high: 210 });
    expect(answer.points).toEqual([
      { week: weekName(10), count: 3, median: 110, low: 100, high: 120 },
      { week: weekName(4), count: 2, median: 205, low: 200, high: 210 },
    ]);
    // A sale in the oldest week of the 52 counts.
    await sales(modelName, [130, 140], { daysAgo: wednesdayOf(51) });
    expect((await historyOf({ modelName, storage: '128 GB' })).points[0]).toEqual({
      week: weekName(51),
      count: 2,
      median: 135,
      low: 130,
      high: 140,
    });
  });

  it('draws nothing until the sales are by three sellers to three buyers', async () => {
    const modelName = newModel();
    const [first, second, third] = pastSellers as [UserRow, UserRow, UserRow];
    await sales(modelName, [300, 310, 320, 330, 340, 350], { sellers: [first, second] });
    expect(await historyOf({ modelName, storage: '128 GB', price: '300' })).toEqual({
      weeks: 52,
      since: weekName(51),
      count: 0,
      low: null,
      high: null,
      points: [],
      typical: null,
      verdict: null,
    });
    await sales(modelName, [335], { sellers: [third] });
    const answer = await historyOf({ modelName, storage: '128 GB', price: '300' });
    expect(answer.count).toBe(7);
    expect(answer.points.length).toBeGreaterThan(0);
    expect(answer.verdict).not.toBeNull();
  });

  it('draws nothing with fewer than five sales', async () => {
    const modelName = newModel();
    await sales(modelName, [300, 310, 320, 330]);
    expect(await historyOf({ modelName, storage: '128 GB' })).toMatchObject({
      count: 0,
      points: [],
      typical: null,
    });
  });

  it('matches the model ignoring case and spaces, as the guide does', async () => {
    const id = uniqueWord();
    await sales(`Galaxy  S${id} Ultra`, [300, 310]);
    await sales(`galaxys${id}ultra`, [320, 330, 340]);
    const answer = await historyOf({ modelName: ` GALAXY S${id}\tULTRA`, storage: '128 GB' });
    expect(answer.count).toBe(5);
  });
});

describe('where a price stands', () => {
  it('is low below the first quartile, high above the third, typical between', async () => {
    const modelName = newModel();
    await sales(modelName, [180, 190, 200, 210, 220]);
    const at = async (price: string) =>
      (await historyOf({ modelName, storage: '128 GB', price })).verdict;
    expect((await historyOf({ modelName, storage: '128 GB' })).typical).toEqual({
      basis: 'model-storage',
      days: 90,
      count: 5,
      low: 190,
      median: 200,
      high: 210,
    });
    expect(await at('189.99')).toBe('low');
    expect(await at('190')).toBe('typical');
    expect(await at('210')).toBe('typical');
    expect(await at('210.01')).toBe('high');
    // Without a price there is no verdict, only the usual prices.
    expect((await historyOf({ modelName, storage: '128 GB' })).verdict).toBeNull();
  });

  it('is high wherever a card says "High price", even below the third quartile', async () => {
    const modelName = newModel();
    // Median 100, third quartile 200: the card's "High price" starts above 115.
    await sales(modelName, [100, 100, 100, 200, 300]);
    const answer = await historyOf({ modelName, storage: '128 GB', price: '115.01' });
    expect(answer.typical).toMatchObject({ low: 100, median: 100, high: 115 });
    expect(answer.verdict).toBe('high');
    expect(await noteOf(modelName, 115.01)).toBe('high');
  });

  it('never contradicts the price note of a card', async () => {
    const modelName = newModel();
    await sales(modelName, [150, 180, 195, 200, 205, 230, 260]);
    for (const price of [100, 179.99, 180, 195, 200, 200.01, 229.99, 230, 230.01, 240, 300]) {
      const { verdict } = await historyOf({ modelName, storage: '128 GB', price: String(price) });
      const note = await noteOf(modelName, price);
      if (note === 'good') expect(verdict, String(price)).not.toBe('high');
      if (note === 'high') expect(verdict, String(price)).toBe('high');
      if (verdict === 'low') expect(note, String(price)).toBe('good');
      if (verdict === 'high') expect(note, String(price)).not.toBe('good');
    }
  });

  it('goes by the same condition once it has five sales of its own, like the guide', async () => {
    const modelName = newModel();
    await sales(modelName, [100, 100, 100, 100, 100], { condition: 'Fair' });
    await sales(modelName, [300, 300, 300, 300, 300], { condition: 'Flawless' });
    const of = (condition: string) =>
      historyOf({ modelName, storage: '128 GB', condition, price: '200' });
    expect(await of('Flawless')).toMatchObject({
      verdict: 'low',
      typical: { basis: 'model-storage-condition', median: 300 },
    });
    expect(await of('Fair')).toMatchObject({ verdict: 'high' });
    expect(await of('Good')).toMatchObject({
      verdict: 'typical',
      typical: { basis: 'model-storage', median: 200 },
    });
  });
});

describe('the price history call', () => {
  it('refuses a storage, condition or price that is not one, and no model', async () => {
    for (const query of <Record<string, string>[]>[
      { modelName: 'Pixel 8', storage: '2 TB' },
      { modelName: 'Pixel 8', storage: '128 GB', condition: 'Mint' },
      { modelName: '   ', storage: '128 GB' },
      { storage: '128 GB' },
      { modelName: 'Pixel 8', storage: '128 GB', price: 'cheap' },
      { modelName: 'Pixel 8', storage: '128 GB', price: '0' },
      { modelName: 'Pixel 8', storage: '128 GB', price: '12.345' },
      { modelName: 'Pixel 8', storage: '128 GB', price: '-5' },
    ]) {
      const res = await t.app.inject(`/api/price-guide/history?${new URLSearchParams(query)}`);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json()).toMatchObject({ message: expect.any(String) });
    }
  });

  it('is public and names nobody who bought or sold', async () => {
    const modelName = newModel();
    await sales(modelName, [400, 410, 420, 430, 440, 450]);
    const res = await t.app.inject(
      `/api/price-guide/history?${new URLSearchParams({ modelName, storage: '128 GB', price: '420' })}`,
    );
    expect(res.statusCode).toBe(200);
    const body = res.body;
    for (const seller of pastSellers) {
      expect(body).not.toContain(seller.id);
      expect(body).not.toContain(seller.email);
      expect(body).not.toContain(seller.name);
    }
    expect(body).not.toMatch(/buyer|seller|email|@|[0-9a-f]{8}-[0-9a-f]{4}-/i);
    const keys = new Set<string>();
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object')
        for (const [k, v] of Object.entries(value)) {
          keys.add(k);
          walk(v);
        }
    };
    walk(res.json());
    expect([...keys].sort()).toEqual(
      [
        'basis',
        'count',
        'days',
        'high',
        'low',
        'median',
        'points',
        'since',
        'typical',
        'verdict',
        'week',
        'weeks',
      ].sort(),
    );
  });
});
