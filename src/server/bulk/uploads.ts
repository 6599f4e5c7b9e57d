/**
 * Bulk uploads as a job (issue 35, decision 057). The CSV is read while the seller waits (2 MB:
 * milliseconds); a refused file is answered at once and nothing is kept. Then, in the
 * background:
 *  1. `photos`, on the server the files reached (the ZIP is a private temporary file there): the
 *     photos the rows name are checked and stored one at a time, then each row is read again
 *     with its photos' URLs, and the upload waits for the seller (`preview`);
 *  2. `listing`, after the seller confirms, on whichever server's round claims it first (a lease,
 *     as the outbox's, decision 027): row by row through `listPhone`, the form's own listing,
 *     each row listed and its outcome written in one transaction, so a crash lists no row twice
 *     and loses none.
 * A server that stops while reading a ZIP leaves its upload's lease to run out; the next round
 * anywhere refuses that upload, asking for the files again (the ZIP was on the stopped server).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  BULK_PREVIEW_HOURS,
  type BulkProblem,
  type BulkRowReport,
  type BulkStatus,
} from '../../shared/bulk';
import { LISTING_LABELS } from '../../shared/listing-input';
import type { Db } from '../db/client';
import { bulkUploadRows, bulkUploads, users } from '../db/schema';
import { DomainError } from '../domain/domain-error';
import { imeiRefusal, listPhone } from '../domain/order-process';
import { InvalidImageError } from '../images/image-store';
import type { LoosePhotos } from '../images/loose-photos';
import type { ImeiVault } from '../imei/imei-vault';
import type { Caller } from '../plugins/auth';
import { recordPhotoHashes } from '../risk/photo-match';
import { type BulkCsvRow, readBulkCsv } from './csv-rows';
import { withPhotos } from './rows-with-photos';
import { readZipPhotos } from './zip-photos';

/** How long a server holds an upload it works on before another may take it over. */
const LEASE_MS = 2 * 60 * 1000;
/** Done, refused and expired uploads stay this long, for the page's history. */
const KEPT_MS = 30 * 24 * 60 * 60 * 1000;
/** The uploads a seller's page lists. */
const HISTORY = 10;

export const BULK_BUSY =
  'An upload of yours is still being read or listed; wait for it to finish, then send the next';
export const BULK_ZIP_REQUIRED = 'Add the ZIP file with the photos the CSV names';
export const BULK_SERVER_STOPPED =
  'The server reading your photos stopped before it finished; send the two files again';
export const BULK_PHOTOS_FAILED = 'Your photos could not be read; send the two files again';
export const BULK_EXPIRED = `This preview waited more than ${BULK_PREVIEW_HOURS} hours; send the two files again`;

/**
 * The start of the name of each upload's private temporary directory: this process's own, so
 * what one server (or test worker) leaves behind is told apart from another's.
 */
export const ZIP_DIR_PREFIX = path.join(tmpdir(), `phone-market-bulk-${process.pid}-`);

/** Where an arriving ZIP is written: a file in a directory of its own, its owner's alone (0700). */
export async function privateZipPath(): Promise<string> {
  return path.join(await mkdtemp(ZIP_DIR_PREFIX), 'photos.zip');
}

/** Removes an arriving ZIP and its directory (a path of `privateZipPath`'s, nothing else). */
export async function removeZip(zipPath: string): Promise<void> {
  const dir = path.dirname(zipPath);
  if (!dir.startsWith(ZIP_DIR_PREFIX) || path.basename(zipPath) !== 'photos.zip') return;
  await rm(dir, { recursive: true, force: true });
}

/** What the page is told of an upload. */
export type BulkUploadView = {
  id: string;
  status: BulkStatus;
  message: string | null;
  createdAt: string;
  rowsTotal: number;
  /** Rows with no problem: what listing would list. */
  rowsReady: number;
  rowsDone: number;
  rowsListed: number;
  photosTotal: number;
  photosDone: number;
};

type Upload = typeof bulkUploads.$inferSelect;

export type BulkDeps = {
  db: Db;
  vault: ImeiVault;
  loosePhotos: LoosePhotos;
  log: FastifyBaseLogger;
};

export class BulkUploads {
  /** Photo readings under way on this server, so closing waits for them. */
  private readonly reading = new Set<Promise<void>>();
  /** The round a kick started, and whether another kick came while it ran. */
  private kicked: Promise<void> | undefined;
  private kickedAgain = false;
  private closed = false;

  constructor(private readonly deps: BulkDeps) {}

  /**
   * Reads the CSV now and starts reading the ZIP (at `zipPath`, a private temporary file this
   * module removes) in the background. A refused CSV is a 400 with its one sentence, and nothing
   * is kept; a seller with an upload still being read or listed is refused (409).
   */
  async start(caller: Caller, csv: Buffer, zipPath: string): Promise<{ id: string }> {
    const read = readBulkCsv(csv);
    if (!read.ok) {
      await removeZip(zipPath);
      throw DomainError.badRequest(read.message);
    }
    const wanted = [...new Set(read.rows.flatMap((r) => r.photoNames))];
    const { db } = this.deps;
    const id = await db
      .transaction(async (tx) => {
        // One seller's uploads take turns on their account's row, so two at once cannot both pass.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, caller.id)).for('update');
        const [busy] = await tx
          .select({ id: bulkUploads.id })
          .from(bulkUploads)
          .where(
            and(
              eq(bulkUploads.sellerId, caller.id),
              inArray(bulkUploads.status, ['photos', 'listing']),
            ),
          )
          .limit(1);
        if (busy) throw DomainError.conflict(BULK_BUSY);
        const [upload] = await tx
          .insert(bulkUploads)
          .values({
            sellerId: caller.id,
            status: 'photos',
            rowsTotal: read.rows.length,
            photosTotal: wanted.length,
            leaseUntil: new Date(Date.now() + LEASE_MS),
          })
          .returning({ id: bulkUploads.id });
        const uploadId = upload?.id as string;
        await tx.insert(bulkUploadRows).values(
          read.rows.map((r) => ({
            uploadId,
            row: r.row,
            model: r.model.slice(0, 200),
            problems: r.problems,
          })),
        );
        return uploadId;
      })
      .catch(async (err) => {
        await removeZip(zipPath);
        throw err;
      });
    const work = this.readPhotos(id, read.rows, wanted, zipPath).finally(() =>
      this.reading.delete(work),
    );
    this.reading.add(work);
    return { id };
  }

  /** Stage 1: the photos the rows name, checked and stored; then each row read with them. */
  private async readPhotos(
    id: string,
    rows: readonly BulkCsvRow[],
    wanted: readonly string[],
    zipPath: string,
  ): Promise<void> {
    const { db, loosePhotos, vault, log } = this.deps;
    const { store } = loosePhotos;
    try {
      const zip = await readZipPhotos(
        zipPath,
        wanted,
        async (bytes) => {
          // As the photo upload does: noted as loose first (no phone has it yet), stored, hashed.
          await loosePhotos.note(db, [store.urlOf(bytes)]);
          const { url, smallest } = await store.save(bytes);
          await recordPhotoHashes(db, url, smallest ?? bytes);
          return url;
        },
        async () => {
          await db
            .update(bulkUploads)
            .set({
              photosDone: sql`${bulkUploads.photosDone} + 1`,
              leaseUntil: new Date(Date.now() + LEASE_MS),
              updatedAt: new Date(),
            })
            .where(eq(bulkUploads.id, id));
        },
      );
      // Its photos are in the store now: the ZIP goes before anyone is told it is read.
      await removeZip(zipPath);
      if (!zip.ok) {
        await this.refuse(id, zip.message);
        return;
      }
      const ready = withPhotos(rows, zip.photos);
      await db.transaction(async (tx) => {
        for (const r of ready) {
          // Other requests' turn between rows (on PGlite the queries alone never give one).
          await setImmediate();
          let input: Record<string, unknown> | null = null;
          let sealedImei: string | null = null;
          let problems = r.problems;
          if (r.input) {
            const { imei, ...fields } = r.input;
            const kept = vault.keep(imei);
            // Told now, not after the seller lists: a file sent again lists nothing twice.
            const refusal = await imeiRefusal(tx, kept.hash);
            if (refusal) problems = [{ column: LISTING_LABELS.imei, message: refusal }];
            else {
              input = fields;
              sealedImei = kept.sealed;
            }
          }
          await tx
            .update(bulkUploadRows)
            .set({ problems, input, sealedImei })
            .where(and(eq(bulkUploadRows.uploadId, id), eq(bulkUploadRows.row, r.row)));
        }
        await tx
          .update(bulkUploads)
          .set({ status: 'preview', leaseUntil: null, updatedAt: new Date() })
          .where(and(eq(bulkUploads.id, id), eq(bulkUploads.status, 'photos')));
      });
    } catch (err) {
      if (!(err instanceof InvalidImageError))
        log.error({ err, uploadId: id }, 'bulk upload photos failed');
      await this.refuse(id, BULK_PHOTOS_FAILED).catch((e) =>
        log.error({ err: e, uploadId: id }, 'bulk upload could not be marked refused'),
      );
    } finally {
      await removeZip(zipPath);
    }
  }

  private async refuse(id: string, message: string): Promise<void> {
    await this.deps.db
      .update(bulkUploads)
      .set({ status: 'refused', message, leaseUntil: null, updatedAt: new Date() })
      .where(and(eq(bulkUploads.id, id), eq(bulkUploads.status, 'photos')));
  }

  /** The seller lists the valid rows of their preview; listing starts in the background. */
  async confirm(caller: Caller, id: string): Promise<BulkUploadView> {
    const upload = await this.own(caller, id);
    if (upload.status !== 'preview')
      throw DomainError.conflict(
        upload.status === 'photos'
          ? 'The photos are still being read; list the rows when the preview shows'
          : 'This upload is not waiting to be listed',
      );
    const [shown] = await this.views([upload]);
    if (!shown?.rowsReady)
      throw DomainError.conflict('No row can be listed; fix the rows and send the files again');
    const [moved] = await this.deps.db
      .update(bulkUploads)
      .set({ status: 'listing', leaseUntil: null, updatedAt: new Date() })
      .where(and(eq(bulkUploads.id, id), eq(bulkUploads.status, 'preview')))
      .returning();
    if (!moved) throw DomainError.conflict('This upload is not waiting to be listed');
    this.kick();
    return { ...shown, status: moved.status };
  }

  /**
   * One round of the timed work: previews past their time expire, readings whose server stopped
   * are refused, old uploads are forgotten, and uploads being listed are listed, one after another.
   */
  async round(now = new Date()): Promise<{ listed: number }> {
    const { db } = this.deps;
    await db
      .update(bulkUploads)
      .set({ status: 'expired', message: BULK_EXPIRED, updatedAt: now })
      .where(
        and(
          eq(bulkUploads.status, 'preview'),
          lt(bulkUploads.updatedAt, new Date(now.getTime() - BULK_PREVIEW_HOURS * 3600_000)),
        ),
      );
    await db
      .update(bulkUploads)
      .set({ status: 'refused', message: BULK_SERVER_STOPPED, leaseUntil: null, updatedAt: now })
      .where(and(eq(bulkUploads.status, 'photos'), lt(bulkUploads.leaseUntil, now)));
    await db
      .delete(bulkUploads)
      .where(
        and(
          inArray(bulkUploads.status, ['done', 'refused', 'expired']),
          lt(bulkUploads.updatedAt, new Date(now.getTime() - KEPT_MS)),
        ),
      );
    let listed = 0;
    for (let upload = await this.claim(now); upload; upload = await this.claim(new Date()))
      listed += await this.listRows(upload);
    return { listed };
  }

  /** Takes one upload due for listing, committed before any row is listed. */
  private claim(now: Date): Promise<Upload | undefined> {
    return this.deps.db.transaction(async (tx) => {
      const [due] = await tx
        .select({ id: bulkUploads.id })
        .from(bulkUploads)
        .where(
          and(
            eq(bulkUploads.status, 'listing'),
            or(isNull(bulkUploads.leaseUntil), lte(bulkUploads.leaseUntil, now)),
          ),
        )
        .orderBy(asc(bulkUploads.updatedAt))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!due) return undefined;
      const [claimed] = await tx
        .update(bulkUploads)
        .set({ leaseUntil: new Date(now.getTime() + LEASE_MS) })
        .where(eq(bulkUploads.id, due.id))
        .returning();
      return claimed;
    });
  }

  /** Stage 2: each row not tried yet, listed and marked in one transaction. */
  private async listRows(upload: Upload): Promise<number> {
    const { db, vault, loosePhotos, log } = this.deps;
    const [seller] = await db.select().from(users).where(eq(users.id, upload.sellerId));
    let listed = 0;
    for (;;) {
      // A turn of the event loop between rows: on PGlite every query settles as a microtask, so
      // without it 500 rows would hold off every request this server has until the last one.
      await setImmediate();
      const [row] = await db
        .select()
        .from(bulkUploadRows)
        .where(
          and(
            eq(bulkUploadRows.uploadId, upload.id),
            isNotNull(bulkUploadRows.input),
            isNull(bulkUploadRows.listed),
          ),
        )
        .orderBy(asc(bulkUploadRows.row))
        .limit(1);
      if (!row) break;
      const done = await db.transaction(async (tx) => {
        // The upload is ours while its lease is: a server whose lease ran out stops here.
        const [still] = await tx
          .update(bulkUploads)
          .set({
            rowsDone: sql`${bulkUploads.rowsDone} + 1`,
            leaseUntil: new Date(Date.now() + LEASE_MS),
            updatedAt: new Date(),
          })
          .where(and(eq(bulkUploads.id, upload.id), eq(bulkUploads.status, 'listing')))
          .returning({ id: bulkUploads.id });
        if (!still) return false;
        let outcome: { listed: boolean; productId: string | null; message: string | null };
        if (seller?.type !== 'seller') {
          outcome = { listed: false, productId: null, message: 'Only a seller may list phones' };
        } else {
          try {
            const productId = await listPhone(
              tx as unknown as Db,
              { vault, photos: loosePhotos },
              callerOfSeller(seller),
              {
                ...(row.input as Parameters<typeof listPhone>[3]),
                ...(row.sealedImei ? { imei: vault.open(row.sealedImei) } : {}),
              },
            );
            outcome = { listed: true, productId, message: null };
          } catch (err) {
            if (!(err instanceof DomainError) || err.statusCode >= 500) throw err;
            outcome = { listed: false, productId: null, message: err.message };
          }
        }
        await tx
          .update(bulkUploadRows)
          .set({
            listed: outcome.listed,
            productId: outcome.productId,
            outcomeMessage: outcome.message,
            // What waited to be listed is no longer needed, its sealed IMEI least of all.
            input: null,
            sealedImei: null,
          })
          .where(and(eq(bulkUploadRows.uploadId, upload.id), eq(bulkUploadRows.row, row.row)));
        if (outcome.listed) listed++;
        return true;
      });
      if (!done) return listed;
    }
    await db
      .update(bulkUploads)
      .set({ status: 'done', leaseUntil: null, updatedAt: new Date() })
      .where(and(eq(bulkUploads.id, upload.id), eq(bulkUploads.status, 'listing')));
    log.info({ uploadId: upload.id, listed }, 'bulk upload listed');
    return listed;
  }

  /** The caller's own upload, or 404 (another seller's is not theirs to know of). */
  private async own(caller: Caller, id: string): Promise<Upload> {
    const [upload] = await this.deps.db
      .select()
      .from(bulkUploads)
      .where(and(eq(bulkUploads.id, id), eq(bulkUploads.sellerId, caller.id)));
    if (!upload) throw DomainError.notFound('No such upload of yours');
    return upload;
  }

  /** An upload and its figures, the caller's own. */
  async view(caller: Caller, id: string): Promise<BulkUploadView> {
    return (await this.views([await this.own(caller, id)]))[0] as BulkUploadView;
  }

  /** An upload, its figures and its rows, the caller's own. */
  async withRows(caller: Caller, id: string): Promise<BulkUploadView & { rows: BulkRowReport[] }> {
    const upload = await this.own(caller, id);
    const [[view], rows] = await Promise.all([this.views([upload]), this.rows(id)]);
    return { ...(view as BulkUploadView), rows };
  }

  /** The caller's latest uploads, newest first. */
  async history(caller: Caller): Promise<BulkUploadView[]> {
    const uploads = await this.deps.db
      .select()
      .from(bulkUploads)
      .where(eq(bulkUploads.sellerId, caller.id))
      .orderBy(desc(bulkUploads.createdAt))
      .limit(HISTORY);
    return this.views(uploads);
  }

  private async views(uploads: Upload[]): Promise<BulkUploadView[]> {
    if (uploads.length === 0) return [];
    const figures = await this.deps.db
      .select({
        uploadId: bulkUploadRows.uploadId,
        ready:
          sql<number>`count(*) filter (where jsonb_array_length(${bulkUploadRows.problems}) = 0)`.mapWith(
            Number,
          ),
        listed: sql<number>`count(*) filter (where ${bulkUploadRows.listed})`.mapWith(Number),
      })
      .from(bulkUploadRows)
      .where(
        inArray(
          bulkUploadRows.uploadId,
          uploads.map((u) => u.id),
        ),
      )
      .groupBy(bulkUploadRows.uploadId);
    const byUpload = new Map(figures.map((f) => [f.uploadId, f]));
    return uploads.map((u) => ({
      id: u.id,
      status: u.status,
      message: u.message,
      createdAt: u.createdAt.toISOString(),
      rowsTotal: u.rowsTotal,
      rowsReady: u.status === 'photos' ? 0 : (byUpload.get(u.id)?.ready ?? 0),
      rowsDone: u.rowsDone,
      rowsListed: byUpload.get(u.id)?.listed ?? 0,
      photosTotal: u.photosTotal,
      photosDone: u.photosDone,
    }));
  }

  /** An upload's rows as the page shows them, in the file's order. */
  private async rows(id: string): Promise<BulkRowReport[]> {
    const rows = await this.deps.db
      .select({
        row: bulkUploadRows.row,
        model: bulkUploadRows.model,
        problems: bulkUploadRows.problems,
        listed: bulkUploadRows.listed,
        productId: bulkUploadRows.productId,
        message: bulkUploadRows.outcomeMessage,
      })
      .from(bulkUploadRows)
      .where(eq(bulkUploadRows.uploadId, id))
      .orderBy(asc(bulkUploadRows.row));
    return rows.map((r) => ({
      row: r.row,
      model: r.model,
      problems: r.problems as BulkProblem[],
      ...(r.listed === true && r.productId
        ? { outcome: { listed: true as const, productId: r.productId } }
        : r.listed === false
          ? { outcome: { listed: false as const, message: r.message ?? '' } }
          : {}),
    }));
  }

  /**
   * A round now rather than at the timer's next (a confirmed upload starts listing at once); a
   * kick during a round asks for one more after it, never two at once.
   */
  kick(): void {
    if (this.closed) return;
    if (this.kicked) {
      this.kickedAgain = true;
      return;
    }
    this.kicked = this.round()
      .then(() => undefined)
      .catch((err) => this.deps.log.error({ err }, 'bulk listing round failed; retried'))
      .finally(() => {
        this.kicked = undefined;
        if (this.kickedAgain) {
          this.kickedAgain = false;
          this.kick();
        }
      });
  }

  /** Waits for the photo readings and the kicked round under way on this server. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.reading, this.kicked]);
  }

  /** Takes no more kicks, then waits as `idle` does (the server closes after). */
  async close(): Promise<void> {
    this.closed = true;
    await this.idle();
  }
}

function callerOfSeller(seller: typeof users.$inferSelect): Caller {
  return {
    id: seller.id,
    email: seller.email,
    name: seller.name,
    type: 'seller',
    userStatus: seller.userStatus,
    isAdmin: false,
  };
}
