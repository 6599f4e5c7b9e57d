/**
 * Saved searches' alerts (issue 33, decision 049), two figures:
 * - the reverse matcher: one new phone matched against 1,000, 10,000 and 100,000 saved searches
 *   (p50 and p99 of 2,000 phones each; target p99 ≤ 10 ms at 100,000), to show how it grows;
 * - the alerts' lag: with 100,000 saved searches in PostgreSQL, 1,000 phones listed in a minute
 *   (one every 60 ms, each followed by the alert work's kick as a listing call makes), how far
 *   behind its listing each phone's alerts were written (target: at most 5 s), and how many
 *   alerts that was.
 * The searches are shaped like buyers': nearly always a model's words (else a brand and a top
 * price), often a storage and a top price, now and then a brand, a condition or a city.
 */
import { sql } from 'drizzle-orm';
import { openDatabase, rowsOf } from '../src/server/db/client';
import { products, savedSearches, users } from '../src/server/db/schema';
import { runAlerts } from '../src/server/saved-searches/alerts';
import { type Criteria, type PhoneFacts, ReverseIndex } from '../src/server/saved-searches/matcher';
import { SavedSearchIndex } from '../src/server/saved-searches/saved-search-index';
import { CATEGORIES, CONDITION_OPTIONS, STORAGE_OPTIONS } from '../src/shared/constants';
import type { Figure } from './lib/report';

const SECTION = 'Saved searches: alerts as phones appear';
/** 200 models: ten families by number, as a marketplace's catalog spreads its buyers. */
const MODELS = [
  'iphone ',
  'galaxy s',
  'galaxy a',
  'pixel ',
  'oneplus ',
  'xiaomi ',
  'redmi note ',
  'moto g',
  'moto edge ',
  'xperia ',
].flatMap((family) => Array.from({ length: 20 }, (_, i) => `${family}${i + 1}`));
const CITIES = ['austin, tx', 'boston, ma', 'denver, co', 'seattle, wa', 'miami, fl'];
const STORAGES = STORAGE_OPTIONS.slice(0, 5);
const BRANDS = CATEGORIES.map((c) => c.categoryId);

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)] as T;
const chance = (p: number) => Math.random() < p;

function randomCriteria(): Criteria {
  // A buyer names the model nearly always; one who does not names the brand and a top price.
  const named = chance(0.97);
  return {
    words: named ? pick(MODELS).split(' ') : [],
    storage: chance(0.5) ? [pick(STORAGES)] : undefined,
    maxPriceCents:
      !named || chance(0.6) ? (150 + Math.floor(Math.random() * 900)) * 100 : undefined,
    brand: !named || chance(0.15) ? [pick(BRANDS)] : undefined,
    condition: chance(0.2) ? [pick(CONDITION_OPTIONS)] : undefined,
    location: chance(0.1) ? pick(CITIES).split(',')[0] : undefined,
    verified: chance(0.1),
  };
}

function randomPhone(): PhoneFacts & { model: string } {
  const model = pick(MODELS);
  return {
    model,
    categoryId: pick(BRANDS),
    ram: '8 GB',
    storage: pick(STORAGES),
    condition: pick(CONDITION_OPTIONS),
    priceCents: (100 + Math.floor(Math.random() * 1000)) * 100,
    battery: 4000,
    batteryHealth: 90,
    locationLower: pick(CITIES),
    verified: chance(0.3),
    words: new Set([...model.split(' '), 'unlocked', 'box']),
  };
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** The matcher alone, in memory, as its size grows. */
function matcherFigures(): Figure[] {
  const figures: Figure[] = [];
  for (const size of [1_000, 10_000, 100_000]) {
    const index = new ReverseIndex<number>();
    for (let i = 0; i < size; i++) index.upsert(`s${i}`, i, randomCriteria());
    const phones = Array.from({ length: 2_000 }, randomPhone);
    for (const phone of phones.slice(0, 200)) index.match(phone); // warm-up
    const times: number[] = [];
    let matched = 0;
    for (const phone of phones) {
      const started = performance.now();
      matched += index.match(phone).length;
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const label = size.toLocaleString('en-US');
    figures.push(
      {
        section: SECTION,
        name: `match one phone, ${label} searches, p50`,
        value: Number(quantile(times, 0.5).toFixed(3)),
        unit: 'ms',
      },
      {
        section: SECTION,
        name: `match one phone, ${label} searches, p99`,
        value: Number(quantile(times, 0.99).toFixed(3)),
        unit: 'ms',
        ...(size === 100_000 ? { target: { op: '<=' as const, value: 10 } } : {}),
        note: `${(matched / phones.length).toFixed(1)} searches matched a phone on average`,
      },
    );
  }
  return figures;
}

/** 100,000 saved searches in the database, 1,000 phones listed in a minute: the alerts' lag. */
async function lagFigures(url: string | undefined): Promise<Figure[]> {
  const database = await openDatabase(url ? { url } : { dataDir: undefined });
  const { db } = database;
  try {
    const owners = Array.from({ length: 25_000 }, (_, i) => ({
      name: `Buyer ${i}`,
      email: `bench-buyer-${i}@bench.example`,
      type: 'user' as const,
    }));
    const ownerIds: string[] = [];
    for (let i = 0; i < owners.length; i += 1_000) {
      const rows = await db
        .insert(users)
        .values(owners.slice(i, i + 1_000))
        .returning({ id: users.id });
      ownerIds.push(...rows.map((r) => r.id));
    }
    const [seller] = await db
      .insert(users)
      .values({ name: 'Bench Seller', email: 'bench-seller@bench.example', type: 'seller' })
      .returning();
    for (let i = 0; i < 100_000; i += 1_000) {
      await db.insert(savedSearches).values(
        Array.from({ length: 1_000 }, (_, j) => {
          const c = randomCriteria();
          const params = new URLSearchParams();
          if (c.words.length) params.set('q', c.words.join(' '));
          for (const s of c.storage ?? []) params.append('storage', s);
          for (const b of c.brand ?? []) params.append('brand', b);
          for (const k of c.condition ?? []) params.append('condition', k);
          if (c.maxPriceCents) params.set('maxPrice', String(c.maxPriceCents / 100));
          if (c.location) params.set('location', c.location);
          if (c.verified) params.set('verified', 'true');
          return {
            userId: ownerIds[(i + j) % ownerIds.length] as string,
            name: `Search ${i + j}`,
            search: params.toString(),
            words: [...c.words],
            locationLower: c.location ?? null,
            frequency: (i + j) % 5 === 0 ? ('daily' as const) : ('instant' as const),
          };
        }),
      );
    }
    const index = new SavedSearchIndex(db);
    const loadStarted = performance.now();
    await index.current();
    const loadMs = performance.now() - loadStarted;
    const work = { db, index, digestHours: 24 };
    let running: Promise<unknown> = Promise.resolve();
    let again = false;
    const kick = () => {
      if (again) return;
      again = true;
      running = running.then(async () => {
        again = false;
        await runAlerts(work);
      });
    };
    const started = Date.now();
    for (let i = 0; i < 1_000; i++) {
      const due = started + i * 60;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const phone = randomPhone();
      await db.insert(products).values({
        categoryId: phone.categoryId,
        modelName: phone.model,
        image: '/images/bench.webp',
        photos: ['/images/bench.webp'],
        originalPriceCents: phone.priceCents * 2,
        resellPriceCents: phone.priceCents,
        location: 'Austin, TX',
        description: 'Unlocked, with its box.',
        timeUsed: 12,
        condition: phone.condition,
        ram: phone.ram,
        storage: phone.storage,
        color: 'Black',
        battery: 4000,
        sellerName: seller?.name ?? '',
        sellerNumber: '+1 512 555 0100',
        sellerEmail: seller?.email ?? '',
      });
      kick();
    }
    await running;
    const wallS = (Date.now() - started) / 1000;
    const [lag] = await rowsOf<{ alerts: number; max_s: number; p99_s: number }>(
      db,
      sql`select count(*)::int as alerts,
             coalesce(max(extract(epoch from a.alerted_at - p.created_at)), 0)::float8 as max_s,
             coalesce(percentile_cont(0.99) within group
               (order by extract(epoch from a.alerted_at - p.created_at)), 0)::float8 as p99_s
          from saved_search_alerts a join products p on p.id = a.product_id`,
    );
    const note = `${lag?.alerts ?? 0} alerts (bell and mail written) for 1,000 phones in ${wallS.toFixed(0)} s on ${url ? 'PostgreSQL' : 'PGlite'}; the 100,000 searches read into memory in ${(loadMs / 1000).toFixed(1)} s`;
    return [
      {
        section: SECTION,
        name: 'alerts behind their listing, 1,000 phones a minute, 100,000 searches, slowest',
        value: Number((lag?.max_s ?? 0).toFixed(2)),
        unit: 's',
        target: { op: '<=', value: 5 },
        note,
      },
      {
        section: SECTION,
        name: 'alerts behind their listing, p99',
        value: Number((lag?.p99_s ?? 0).toFixed(2)),
        unit: 's',
      },
    ];
  } finally {
    await database.close();
  }
}

export async function benchSavedSearches(url: string | undefined): Promise<Figure[]> {
  return [...matcherFigures(), ...(await lagFigures(url))];
}
