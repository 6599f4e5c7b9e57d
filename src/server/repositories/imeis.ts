/**
 * IMEIs the admin blocked as reported stolen (issue 19, decision 024): kept as the same keyed hash
 * as a listing's and the last four digits, never the IMEI itself. The rule that a block withdraws
 * live listings is the order process's (domain/order-process.ts `blockImei`).
 */
import { and, eq, lt } from 'drizzle-orm';
import type { PaginationQuery } from '../../shared/api';
import type { BlockedImei } from '../../shared/entities';
import type { ProductState } from '../../shared/order-process';
import type { Db, Tx } from '../db/client';
import { blockedImeis, products } from '../db/schema';
import { cursorOf, newestFirst, type Page, pageOf } from './page';

/** Blocks the IMEI of `hash`; answers the new row's id, or null when it was blocked already. */
export async function insertBlockedImei(
  db: Db | Tx,
  block: { hash: string; last4: string; reason: string; blockedBy: string },
): Promise<string | null> {
  const [row] = await db
    .insert(blockedImeis)
    .values({
      imeiHash: block.hash,
      imeiLast4: block.last4,
      reason: block.reason,
      blockedBy: block.blockedBy,
    })
    .onConflictDoNothing({ target: blockedImeis.imeiHash })
    .returning({ id: blockedImeis.id });
  return row?.id ?? null;
}

/** When the IMEI of `hash` was blocked, or undefined when it is not. */
export async function findBlockedImei(db: Db | Tx, hash: string) {
  const [row] = await db
    .select({ id: blockedImeis.id, blockedAt: blockedImeis.createdAt })
    .from(blockedImeis)
    .where(eq(blockedImeis.imeiHash, hash))
    .limit(1);
  return row;
}

/**
 * Moves every listing of the IMEI `hash` that is in state `from` to `to` (the caller names both
 * from the product graph); answers how many moved.
 */
export async function moveListingsOfImei(
  db: Db | Tx,
  hash: string,
  from: ProductState,
  to: ProductState,
): Promise<number> {
  const moved = await db
    .update(products)
    .set({ status: to })
    .where(and(eq(products.imeiHash, hash), eq(products.status, from)))
    .returning({ id: products.id });
  return moved.length;
}

/** Lifts a block; answers whether there was one. Withdrawn listings stay withdrawn. */
export async function deleteBlockedImei(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .delete(blockedImeis)
    .where(eq(blockedImeis.id, id))
    .returning({ id: blockedImeis.id });
  return rows.length > 0;
}

/** Blocked IMEIs, newest first, a page at a time: the last four digits, never the IMEI. */
export async function listBlockedImeis(db: Db, query: PaginationQuery): Promise<Page<BlockedImei>> {
  const cursor = cursorOf(query);
  const rows = await db
    .select({
      id: blockedImeis.id,
      seq: blockedImeis.seq,
      imeiLast4: blockedImeis.imeiLast4,
      reason: blockedImeis.reason,
      createdAt: blockedImeis.createdAt,
    })
    .from(blockedImeis)
    .where(cursor ? lt(blockedImeis.seq, cursor) : undefined)
    .orderBy(newestFirst(blockedImeis.seq))
    .limit(query.limit + 1);
  return pageOf(
    rows,
    query,
    (r) => r.seq,
    (r) => ({
      _id: r.id,
      imeiLast4: r.imeiLast4,
      reason: r.reason,
      blockedAt: r.createdAt.toISOString(),
    }),
  );
}
