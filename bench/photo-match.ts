/**
 * Reused photos (issue 34, decision 054): how long finding a listing's photos on other sellers'
 * listings takes as the stored photos grow, and what it adds to an upload and a listing.
 * - the lookup (findReusedPhotos) of a listing's 6 photos at 10,000 and 1,000,000 stored photos,
 *   p50 and p99 of 500 listings each;
 * - the hash of an uploaded photo: a 12 MP phone JPEG (4032×3024) and a 1200×1600 one, p50 and
 *   p99 of 30 runs each;
 * - the time added to making a listing: one photo's hash and the 6-photo lookup at 1,000,000,
 *   p99 of each summed (target ≤ 50 ms with the other rules).
 * The stored photos are random 64- and 256-bit hashes made in bulk by the database (md5 of a
 * number, so every run stores the same ones) plus 300 hashes of synthetic phone photos on 300
 * sellers' listings; the listings looked up show synthetic photos (their hashes stored first, as
 * their uploads would), and one in ten a copy of a stored listing's photo, which it must find.
 */
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { openDatabase } from '../src/server/db/client';
import { products, users } from '../src/server/db/schema';
import { assessListing } from '../src/server/risk/assess';
import { photoHashes } from '../src/server/risk/photo-hash';
import { findReusedPhotos, recordPhotoHashes } from '../src/server/risk/photo-match';
import { createSale, productValues } from '../tests/helpers/factories';
import { copiesOf, syntheticPhoto } from '../tests/helpers/synthetic-photos';
import type { Figure } from './lib/report';

const SECTION = 'Reused photos: the photo match';
const LISTINGS = 500;
const PHOTOS_PER_LISTING = 6;
const STORED_REAL = 300;

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const ms = (n: number) => Number(n.toFixed(2));
const timed = async (work: () => Promise<unknown>) => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};

export async function benchPhotoMatch(url: string | undefined): Promise<Figure[]> {
  const figures: Figure[] = [];
  const database = await openDatabase(url ? { url } : { dataDir: undefined });
  const { db } = database;
  try {
    // The hash of an upload, on a phone's full-size JPEG and a smaller one.
    const hashP99: Record<string, number> = {};
    for (const [label, width, variant] of [
      ['12 MP JPEG (4032×3024)', 3024, false],
      ['1200×1600 JPEG', 1200, false],
      // What the upload route hashes: the 320 px WebP the store has just encoded.
      ['12 MP upload’s 320 px WebP variant', 3024, true],
    ] as const) {
      const photos = await Promise.all(
        [1, 2, 3].map(async (seed) => {
          const photo = await syntheticPhoto(90_000 + seed, width);
          return variant ? sharp(photo).resize({ width: 320 }).webp().toBuffer() : photo;
        }),
      );
      const times: number[] = [];
      for (let run = 0; run < 33; run++) {
        const t = await timed(() => photoHashes(photos[run % 3] as Buffer));
        if (run >= 3) times.push(t);
      }
      times.sort((a, b) => a - b);
      hashP99[label] = quantile(times, 0.99);
      figures.push(
        {
          section: SECTION,
          name: `hash one upload, ${label}, p50`,
          value: ms(quantile(times, 0.5)),
          unit: 'ms',
        },
        {
          section: SECTION,
          name: `hash one upload, ${label}, p99`,
          value: ms(quantile(times, 0.99)),
          unit: 'ms',
        },
      );
    }

    // Real photos on 300 sellers' listings, and their copies for the lookups to find.
    const sellers = await db
      .insert(users)
      .values(
        Array.from({ length: STORED_REAL + 1 }, (_, i) => ({
          name: `Bench seller ${i}`,
          email: `bench-photo-seller-${i}@bench.example`,
          type: 'seller' as const,
        })),
      )
      .returning();
    const lister = sellers[STORED_REAL] as (typeof sellers)[number];
    const storedUrls: string[] = [];
    const copies: Buffer[] = [];
    for (let i = 0; i < STORED_REAL; i++) {
      const photo = await syntheticPhoto(100_000 + i, 400);
      const photoUrl = `/images/${(0xb000_0000 + i).toString(16).padStart(32, '0')}-640.webp`;
      await recordPhotoHashes(db, photoUrl, photo);
      storedUrls.push(photoUrl);
      if (i < LISTINGS / 10)
        copies.push(
          (await copiesOf(photo))['trimmed, brightened, 640 wide, WebP of quality 50'] as Buffer,
        );
    }
    await db
      .insert(products)
      .values(
        storedUrls.map((image, i) =>
          productValues(sellers[i] as (typeof sellers)[number], { image }),
        ),
      );
    // The photos of the listings to look up, stored as their uploads would be.
    const listings: string[][] = [];
    for (let l = 0; l < LISTINGS; l++) {
      const photos: string[] = [];
      for (let p = 0; p < PHOTOS_PER_LISTING; p++) {
        const n = l * PHOTOS_PER_LISTING + p;
        const copied = p === 0 && l % 10 === 0;
        const bytes = copied
          ? (copies[l / 10] as Buffer)
          : await syntheticPhoto(200_000 + (n % 600), 240);
        const photoUrl = `/images/${(0xc000_0000 + n).toString(16).padStart(32, '0')}-640.webp`;
        await recordPhotoHashes(db, photoUrl, bytes);
        photos.push(photoUrl);
      }
      listings.push(photos);
    }

    let stored = 0;
    const fill = async (upTo: number) => {
      // Random hashes in bulk, 100,000 a statement; the bands follow from `hash` (generated).
      for (; stored < upTo; stored = Math.min(upTo, stored + 100_000)) {
        await db.execute(sql`
          insert into photo_hashes (url, hash, detail)
          select '/images/random-' || g || '-640.webp',
            ('x' || substr(md5(g || 'h'), 1, 16))::bit(64)::bigint,
            ('x' || md5(g || 'a') || md5(g || 'b'))::bit(256)
          from generate_series(${stored + 1}::int, ${Math.min(upTo, stored + 100_000)}::int) g`);
      }
      await db.execute(sql`analyze photo_hashes`);
    };

    let lookupP99 = 0;
    for (const size of [10_000, 1_000_000]) {
      const started = performance.now();
      await fill(size);
      const filled = (performance.now() - started) / 1000;
      for (const photos of listings.slice(0, 50))
        await findReusedPhotos(db, { photos, sellerEmail: lister.email }); // warm-up
      const times: number[] = [];
      let found = 0;
      for (const photos of listings) {
        let matches = 0;
        times.push(
          await timed(async () => {
            matches = (await findReusedPhotos(db, { photos, sellerEmail: lister.email })).length;
          }),
        );
        found += matches;
      }
      times.sort((a, b) => a - b);
      lookupP99 = quantile(times, 0.99);
      const label = size.toLocaleString('en-US');
      figures.push(
        {
          section: SECTION,
          name: `look up a listing's 6 photos, ${label} stored photos, p50`,
          value: ms(quantile(times, 0.5)),
          unit: 'ms',
        },
        {
          section: SECTION,
          name: `look up a listing's 6 photos, ${label} stored photos, p99`,
          value: ms(lookupP99),
          unit: 'ms',
          note: `${found} of ${LISTINGS / 10} copied photos found, ${found - LISTINGS / 10} other matches; the random hashes stored in ${filled.toFixed(0)} s`,
        },
      );
    }
    // Every rule of a listing, as listing it runs them (decision 052), at 1,000,000 stored photos:
    // the price guide (five counted sales of its model), the photo lookup, the new seller's
    // listings, the banned link, the reports, the signals kept and the hold decided.
    const model = 'Bench Pixel Rules';
    for (let i = 0; i < 5; i++) {
      const [sold] = await db
        .insert(products)
        .values(
          productValues(sellers[i] as (typeof sellers)[number], {
            modelName: model,
            storage: '128 GB',
            condition: 'Good',
            resellPriceCents: 50_000,
          }),
        )
        .returning();
      await createSale(db, sold as typeof products.$inferSelect, { daysAgo: 1 + i });
    }
    const ids = (
      await db
        .insert(products)
        .values(
          listings.map((photos, l) =>
            productValues(lister, {
              modelName: model,
              storage: '128 GB',
              condition: 'Good',
              image: photos[0] as string,
              photos,
              // One in five far below the guide, as a scammer's.
              resellPriceCents: l % 5 === 0 ? 10_000 : 48_000,
            }),
          ),
        )
        .returning({ id: products.id })
    ).map((r) => r.id);
    for (const id of ids.slice(0, 50)) await db.transaction((tx) => assessListing(tx, id));
    const rules: number[] = [];
    for (const id of ids)
      rules.push(await timed(() => db.transaction((tx) => assessListing(tx, id))));
    rules.sort((a, b) => a - b);
    const rulesP99 = quantile(rules, 0.99);
    figures.push(
      {
        section: SECTION,
        name: 'every rule of a listing (assessListing) at 1,000,000 stored photos, p50',
        value: ms(quantile(rules, 0.5)),
        unit: 'ms',
      },
      {
        section: SECTION,
        name: 'every rule of a listing (assessListing) at 1,000,000 stored photos, p99',
        value: ms(rulesP99),
        unit: 'ms',
        note: `the lookup alone: p99 ${ms(lookupP99)} ms`,
      },
    );
    const added = (hashP99['12 MP upload’s 320 px WebP variant'] ?? 0) + rulesP99;
    figures.push({
      section: SECTION,
      name: 'added to making a listing at 1,000,000 stored photos (hash of a 12 MP upload’s 320 px variant + every rule, p99s summed)',
      value: ms(added),
      unit: 'ms',
      target: { op: '<=', value: 50 },
    });
    return figures;
  } finally {
    await database.close();
  }
}
