/**
 * "A photo already used on another seller's listing" (issue 34, decision 054): every stored
 * photo's perceptual hashes are kept by URL in `photo_hashes`, written when the photo is stored;
 * a listing's photos are looked up there by multi-index hashing (the 64-bit hash in three
 * indexed bands, each probed within 2 bits), every candidate confirmed by both distances, and the
 * matches kept that another seller's listing shows. All in the database, so every server sees
 * every other's uploads at once.
 */
import { eq, sql } from 'drizzle-orm';
import type { PhotoMatch } from '../../shared/risk';
import { type Db, rowsOf, type Tx } from '../db/client';
import { photoHashes as photoHashesTable } from '../db/schema';
import {
  PHOTO_MATCH_MAX_DETAIL_DISTANCE,
  PHOTO_MATCH_MAX_DISTANCE,
  type PhotoHashes,
  photoHashes,
} from './photo-hash';

/** The bands' widths, most significant first, as schema.ts cuts them (22 + 21 + 21 = 64). */
const BANDS = [
  { shift: 42n, bits: 22 },
  { shift: 21n, bits: 21 },
  { shift: 0n, bits: 21 },
] as const;
/** Bits a band may differ in: with 3 bands, 2 covers every pair at most 8 apart. */
const BAND_RADIUS = Math.floor(PHOTO_MATCH_MAX_DISTANCE / BANDS.length);

/** Keeps the hashes of a stored photo (an upload, a seed photo); a photo already kept is left. */
export async function recordPhotoHashes(
  db: Db | Tx,
  url: string,
  bytes: Buffer,
): Promise<PhotoHashes | null> {
  const [kept] = await db
    .select({ url: photoHashesTable.url })
    .from(photoHashesTable)
    .where(eq(photoHashesTable.url, url));
  if (kept) return null;
  const hashes = await photoHashes(bytes);
  // A blank picture hashes like every other blank one: it is matched by its URL alone.
  if (hashes.featureless) return hashes;
  await db
    .insert(photoHashesTable)
    .values({ url, hash: BigInt.asIntN(64, hashes.hash), detail: hashes.detail })
    .onConflictDoNothing();
  return hashes;
}

/** Every value within `radius` bits of `value`, a number of `bits` bits. */
export function valuesWithin(value: number, bits: number, radius: number): number[] {
  const out = [value];
  const flip = (from: number, start: number, left: number) => {
    for (let bit = start; bit < bits; bit++) {
      const next = from ^ (1 << bit);
      out.push(next);
      if (left > 1) flip(next, bit + 1, left - 1);
    }
  };
  if (radius > 0) flip(value, 0, radius);
  return out;
}

/** The band values a lookup probes for `hash` (unsigned), one list a band. */
export function bandProbes(hash: bigint): number[][] {
  return BANDS.map(({ shift, bits }) =>
    valuesWithin(Number((hash >> shift) & ((1n << BigInt(bits)) - 1n)), bits, BAND_RADIUS),
  );
}

const intArray = (values: number[]) => `{${values.join(',')}}`;

/**
 * The photos of a listing that are (or copy) a photo on another seller's listing, each with its
 * nearest such photo, nearest first: the same URL (distance 0), or a stored photo whose hashes lie
 * within both thresholds, whose first showing was another seller's: the oldest listing that shows
 * the matched photo (this one included, withdrawn ones left out) must be another seller's, and a
 * near match's stored photo older than this one. The oldest is named: likely the original. So
 * the seller who showed a photo first is never flagged for it, however many copy it later.
 * (`productId`, the listing being assessed, is among the listings weighed.)
 */
export async function findReusedPhotos(
  db: Db | Tx,
  { photos, sellerEmail }: { photos: string[]; sellerEmail: string; productId?: string },
): Promise<PhotoMatch[]> {
  const wanted = [...new Set(photos)];
  if (wanted.length === 0) return [];
  // PostgreSQL would hand these few index probes to parallel workers, whose start costs more than
  // the probes (bench/photo-match.ts): off for this lookup, and as it was again after, should the
  // caller's transaction go on (set_config's local setting lasts to its end, savepoint or not).
  return db.transaction(async (tx) => {
    const [setting] = await rowsOf<{ previous: string }>(
      tx,
      sql`select current_setting('max_parallel_workers_per_gather') as previous,
          set_config('max_parallel_workers_per_gather', '0', true)`,
    );
    const matches = await lookUp(tx, wanted, sellerEmail);
    await tx.execute(
      sql`select set_config('max_parallel_workers_per_gather', ${setting?.previous ?? '2'}, true)`,
    );
    return matches;
  });
}

async function lookUp(db: Tx, wanted: string[], sellerEmail: string): Promise<PhotoMatch[]> {
  const own = await rowsOf<{ url: string; hash: string; detail: string; stored: string }>(
    db,
    sql`select url, hash::text as hash, detail::text as detail,
               created_at::text as stored from photo_hashes
        where url in (${sql.join(
          wanted.map((url) => sql`${url}`),
          sql`, `,
        )})`,
  );
  const identical = sql.join(
    wanted.map((url) => sql`select ${url}::text, ${url}::text, 0, 0`),
    sql` union all `,
  );
  const near = own.map((row) => {
    const [b0, b1, b2] = bandProbes(BigInt.asUintN(64, BigInt(row.hash))).map(intArray);
    return sql`select ${row.url}::text, url,
        bit_count((${row.hash}::bigint # hash)::bit(64))::int,
        bit_count(${row.detail}::bit(256) # detail)::int
      from photo_hashes
      where (band0 = any(${b0}::int[]) or band1 = any(${b1}::int[]) or band2 = any(${b2}::int[]))
        and url <> ${row.url}
        -- The copy is the later of the two: a photo stored before its like is its original,
        -- never counted against the seller who first showed it.
        and created_at < ${row.stored}::timestamptz`;
  });
  const candidates = sql.join([identical, ...near], sql` union all `);
  const rows = await rowsOf<{
    photo: string;
    matched: string;
    product_id: string;
    distance: number;
    detail_distance: number;
  }>(
    db,
    sql`with candidate(photo, matched, distance, detail_distance) as (${candidates})
      select distinct on (c.photo) c.photo, c.matched, p.id as product_id, c.distance,
        c.detail_distance
      from candidate c
      cross join lateral (
        -- The oldest listing that shows the matched photo, this one included: its seller showed
        -- it first (the same file on an older listing of theirs is no copy of a newer one). A
        -- withdrawn listing claims no photo: uploaded early and shown never, it took none.
        select id, seq, seller_email from products
        where photos @> array[c.matched] and status <> 'withdrawn'
        order by seq
        limit 1
      ) p
      where p.seller_email <> ${sellerEmail}
        and c.distance <= ${PHOTO_MATCH_MAX_DISTANCE}
        and c.detail_distance <= ${PHOTO_MATCH_MAX_DETAIL_DISTANCE}
      order by c.photo, c.distance, c.detail_distance, p.seq`,
  );
  return rows
    .sort((a, b) => a.distance - b.distance || a.detail_distance - b.detail_distance)
    .map((row) => ({
      photo: row.photo,
      matchedPhoto: row.matched,
      matchedProductId: row.product_id,
      distance: row.distance,
    }));
}
