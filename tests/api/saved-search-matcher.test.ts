/**
 * The reverse matcher (issue 33, decision 049) against the search itself: for random catalogs and
 * random saved searches, the saved searches the matcher finds for each phone are exactly those
 * whose search (repositories/search.ts, words as typed) lists that phone. A search that shows close
 * matches lists phones by words they do not have: no alert is owed for those.
 */
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products } from '../../src/server/db/schema';
import { searchProducts } from '../../src/server/repositories/search';
import { phoneFactsOf } from '../../src/server/saved-searches/alerts';
import {
  canonicalSearch,
  criteriaOf,
  madeByDatabase,
  parseSearch,
} from '../../src/server/saved-searches/criteria';
import { matches, ReverseIndex } from '../../src/server/saved-searches/matcher';
import { createSeller, productValues } from '../helpers/factories';
import { buildTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
let sellers: Awaited<ReturnType<typeof createSeller>>[];

beforeAll(async () => {
  t = await buildTestApp();
  sellers = [
    await createSeller(t.database.db),
    await createSeller(t.database.db, { userStatus: 'verified' }),
  ];
});
afterAll(async () => {
  await t?.close();
});

const MODELS = ['Pixel 7', 'Galaxy S22', 'iPhone 14 Pro', 'Moto G', 'Pixel 8 Pro'];
const DESCRIPTIONS = ['Like new with box', 'Small scratch on the screen', 'Unlocked, new battery'];
const WORDS = [
  'pixel',
  'pro',
  'galaxy',
  'box',
  'new',
  'iphone',
  '14',
  'screen',
  'nokia',
  'unlocked',
];
const LOCATIONS = ['Austin, TX', 'Boston, MA', 'Houston, TX'];

const phoneArb = fc.record({
  seller: fc.integer({ min: 0, max: 1 }),
  categoryId: fc.constantFrom('01', '02', '03'),
  modelName: fc.constantFrom(...MODELS),
  description: fc.constantFrom(...DESCRIPTIONS),
  ram: fc.constantFrom('4 GB', '8 GB'),
  storage: fc.constantFrom('64 GB', '128 GB', '256 GB'),
  condition: fc.constantFrom('Good', 'Fair', 'Excellent'),
  resellPriceCents: fc.integer({ min: 5_000, max: 90_000 }),
  battery: fc.integer({ min: 2000, max: 5000 }),
  batteryHealth: fc.option(fc.integer({ min: 50, max: 100 }), { nil: null }),
  location: fc.constantFrom(...LOCATIONS),
});

const some = <T>(values: readonly T[]) =>
  fc.option(fc.subarray([...values], { minLength: 1 }), { nil: undefined });

/** A search as its query string, each filter set or not. */
const searchArb = fc
  .record({
    q: fc.option(fc.subarray(WORDS, { minLength: 1, maxLength: 2 }), { nil: undefined }),
    brand: some(['01', '02', '03']),
    ram: some(['4 GB', '8 GB']),
    storage: some(['64 GB', '128 GB', '256 GB']),
    condition: some(['Good', 'Fair', 'Excellent']),
    minPrice: fc.option(fc.integer({ min: 50, max: 500 }), { nil: undefined }),
    maxPrice: fc.option(fc.integer({ min: 300, max: 900 }), { nil: undefined }),
    minBattery: fc.option(fc.integer({ min: 2000, max: 5000 }), { nil: undefined }),
    minBatteryHealth: fc.option(fc.integer({ min: 50, max: 100 }), { nil: undefined }),
    location: fc.option(fc.constantFrom('austin', 'TX', 'ton', 'Dallas'), { nil: undefined }),
    verified: fc.boolean(),
  })
  .map((s) => {
    const params = new URLSearchParams();
    if (s.q) params.set('q', s.q.join(' '));
    for (const key of ['brand', 'ram', 'storage', 'condition'] as const)
      for (const v of s[key] ?? []) params.append(key, v);
    if (s.minPrice !== undefined) params.set('minPrice', String(s.minPrice));
    // Never a minimum above the maximum: the search refuses that.
    if (s.maxPrice !== undefined && (s.minPrice === undefined || s.maxPrice >= s.minPrice))
      params.set('maxPrice', String(s.maxPrice));
    if (s.minBattery !== undefined) params.set('minBattery', String(s.minBattery));
    if (s.minBatteryHealth !== undefined)
      params.set('minBatteryHealth', String(s.minBatteryHealth));
    if (s.location) params.set('location', s.location);
    if (s.verified) params.set('verified', 'true');
    return params.toString();
  });

describe('the reverse matcher', () => {
  it('finds for each phone exactly the saved searches whose search lists it', async () => {
    const db = t.database.db;
    await fc.assert(
      fc.asyncProperty(
        fc.array(phoneArb, { minLength: 1, maxLength: 10 }),
        fc.array(searchArb, { minLength: 1, maxLength: 6 }),
        async (catalog, searches) => {
          for (const seller of sellers)
            await db.delete(products).where(eq(products.sellerEmail, seller.email));
          const listed = await db
            .insert(products)
            .values(
              catalog.map(({ seller, ...p }) =>
                productValues(sellers[seller] as (typeof sellers)[number], p),
              ),
            )
            .returning({ id: products.id });
          const index = new ReverseIndex<string>();
          const criteria = [];
          const expected = new Map<string, Set<string>>();
          for (const [i, search] of searches.entries()) {
            const query = parseSearch(search);
            const made = await madeByDatabase(db, query).catch(() => null);
            if (!made) continue;
            const c = criteriaOf(parseSearch(canonicalSearch(query)), made);
            criteria.push(c);
            index.upsert(String(i), 'owner', c);
            const answer = await searchProducts(db, { ...query, limit: 100 });
            expected.set(
              String(i),
              new Set(answer.closeMatches ? [] : answer.products.map((p) => p._id)),
            );
          }
          const phones = await phoneFactsOf(
            db,
            listed.map((l) => l.id),
          );
          expect(phones).toHaveLength(listed.length);
          for (const phone of phones) {
            const found = index
              .match(phone)
              .map((m) => m.id)
              .sort();
            const wanted = [...expected]
              .filter(([, ids]) => ids.has(phone.row.id))
              .map(([id]) => id)
              .sort();
            expect(found, `${phone.row.model_name} ${phone.row.id}`).toEqual(wanted);
            // The plain rule agrees with the index.
            const plain = criteria.filter((c) => matches(c, phone)).length;
            expect(plain).toBe(found.length);
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 240_000);
});
