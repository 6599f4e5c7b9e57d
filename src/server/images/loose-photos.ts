/**
 * Photos nobody keeps (issue 19, decision 026). A seller's photos upload as they are picked, so a
 * form given up, a photo removed or a phone deleted leaves files no page shows. Each such photo is
 * noted in `loose_photos` with a day's grace (the seller may still be filling in the form); the
 * timed work's sweep then forgets a photo that some phone or order shows, and removes the files
 * of one that none shows, keeping its row for a month as a sign that it was swept.
 *
 * The sweep and the saving of a phone's photos take turns on one advisory lock (the sweep alone,
 * savers together), so a photo is never removed under a listing that is saving it: a save that
 * comes first is seen by the sweep, and a save that comes after finds the photo swept and says so.
 */
import { and, arrayContains, eq, exists, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { loosePhotos, orders, products } from '../db/schema';
import { DomainError } from '../domain/domain-error';
import type { ImageStore } from './image-store';

/** How long a photo may stay on no phone: a day, so a form left open over lunch still saves. */
export const LOOSE_PHOTO_GRACE_MS = 24 * 60 * 60 * 1000;
/** How long the sign of a swept photo is kept: longer than any sign-in a form could outlive. */
const SWEPT_KEPT_MS = 30 * 24 * 60 * 60 * 1000;
/** Photos one sweep transaction looks at; a round goes on until none is due. */
const SWEEP_BATCH = 200;
/** The advisory lock's key ('loose_photos' hashed): no other lock uses it. */
const SWEEP_LOCK = sql`hashtextextended('loose_photos', 0)`;

/**
 * The outer row's photo, qualified by hand: drizzle leaves a one-table select's columns bare, and
 * a bare name in a subquery means the subquery's own column when it has one of that name.
 */
const OUTER_URL = sql.raw('"loose_photos"."url"');

export const PHOTO_GONE =
  'Photos: a photo was removed after a day on no phone; remove it and add it again';
export const PHOTO_UNKNOWN = 'Photos: a photo was never uploaded here; remove it and add it again';

/** `Store` is the store's own class where the caller knows it (the image host serves from it). */
export class LoosePhotos<Store extends ImageStore = ImageStore> {
  constructor(
    readonly store: Store,
    private readonly graceMs = LOOSE_PHOTO_GRACE_MS,
  ) {}

  /**
   * Notes photos that may belong to no phone from now on: an upload (before its files are
   * written, so that a sweep under way cannot remove them after), or photos a phone let go of.
   * A later note of the same photo moves its check later, and brings a swept photo back.
   */
  async note(db: Db | Tx, urls: readonly string[], now = new Date()): Promise<void> {
    const own = [...new Set(urls.filter((url) => this.store.owns(url)))];
    if (own.length === 0) return;
    const checkAfter = new Date(now.getTime() + this.graceMs);
    await db
      .insert(loosePhotos)
      .values(own.map((url) => ({ url, checkAfter })))
      .onConflictDoUpdate({
        target: loosePhotos.url,
        set: {
          checkAfter: sql`greatest(${loosePhotos.checkAfter}, excluded.check_after)`,
          sweptAt: null,
        },
      });
  }

  /**
   * Inside the transaction that saves a phone's photos: waits for a sweep under way, then
   * refuses a photo that was swept (a form kept open for more than a day after its upload), and
   * one the store never had: a name of our shape made up (issue 29), which would show a broken
   * photo. The sweep waits in turn until this transaction ends, and then sees the phone.
   */
  async keep(tx: Tx, urls: readonly string[]): Promise<void> {
    const own = [...new Set(urls.filter((url) => this.store.owns(url)))];
    if (own.length === 0) return;
    await tx.execute(sql`select pg_advisory_xact_lock_shared(${SWEEP_LOCK})`);
    const noted = await tx
      .select({ url: loosePhotos.url, sweptAt: loosePhotos.sweptAt })
      .from(loosePhotos)
      .where(inArray(loosePhotos.url, own));
    if (noted.some((row) => row.sweptAt !== null)) throw DomainError.badRequest(PHOTO_GONE);
    // A photo not noted since its upload is one a phone or a sale has shown for a day or more.
    const recent = new Set(noted.map((row) => row.url));
    for (const url of own.filter((u) => !recent.has(u)))
      if (!(await this.isShown(tx, url))) throw DomainError.badRequest(PHOTO_UNKNOWN);
  }

  /** Whether a phone or a sale shows the photo (the indexes answer it). */
  private async isShown(tx: Tx, url: string): Promise<boolean> {
    const one = { one: sql`1` };
    const onPhone = tx
      .select(one)
      .from(products)
      .where(arrayContains(products.photos, [url]));
    const onSale = tx.select(one).from(orders).where(eq(orders.image, url));
    return (await onPhone.limit(1)).length > 0 || (await onSale.limit(1)).length > 0;
  }

  /** Checks every photo that is due; answers how many it removed. */
  async sweep(db: Db, now = new Date()): Promise<number> {
    await db
      .delete(loosePhotos)
      .where(lt(loosePhotos.sweptAt, new Date(now.getTime() - SWEPT_KEPT_MS)));
    let removed = 0;
    for (;;) {
      const { due, loose } = await db.transaction((tx) => this.sweepBatch(tx, now));
      removed += loose;
      if (due < SWEEP_BATCH) return removed;
    }
  }

  private async sweepBatch(tx: Tx, now: Date): Promise<{ due: number; loose: number }> {
    await tx.execute(sql`select pg_advisory_xact_lock(${SWEEP_LOCK})`);
    const due = await tx
      .select({ url: loosePhotos.url })
      .from(loosePhotos)
      .where(and(isNull(loosePhotos.sweptAt), lte(loosePhotos.checkAfter, now)))
      .orderBy(loosePhotos.checkAfter)
      .limit(SWEEP_BATCH)
      .for('update');
    if (due.length === 0) return { due: 0, loose: 0 };
    const urls = due.map((row) => row.url);
    // After the lock, so every phone saved before it is seen; the indexes answer each photo.
    const shown = await tx
      .select({ url: loosePhotos.url })
      .from(loosePhotos)
      .where(
        and(
          inArray(loosePhotos.url, urls),
          or(
            exists(
              tx
                .select({ one: sql`1` })
                .from(products)
                .where(arrayContains(products.photos, sql`array[${OUTER_URL}]`)),
            ),
            exists(tx.select({ one: sql`1` }).from(orders).where(eq(orders.image, OUTER_URL))),
          ),
        ),
      );
    const kept = shown.map((row) => row.url);
    const loose = urls.filter((url) => !kept.includes(url));
    if (kept.length > 0) await tx.delete(loosePhotos).where(inArray(loosePhotos.url, kept));
    if (loose.length > 0)
      await tx.update(loosePhotos).set({ sweptAt: now }).where(inArray(loosePhotos.url, loose));
    // Before the commit: if a removal fails, the photos stay due and the next round tries again.
    for (const url of loose) await this.store.remove(url);
    return { due: due.length, loose: loose.length };
  }
}
