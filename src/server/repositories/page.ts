/** Keyset pagination over a table's `seq`: fetch one row more than asked to learn if a next page exists. */
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import type { PaginationQuery } from '../../shared/api';

export type Page<T> = { items: T[]; nextCursor: string | null };

export function pageOf<R, T>(
  rows: R[],
  query: PaginationQuery,
  seqOf: (row: R) => number,
  map: (row: R) => T,
): Page<T> {
  const kept = rows.slice(0, query.limit);
  const last = kept.at(-1);
  const more = rows.length > query.limit && last !== undefined;
  return { items: kept.map(map), nextCursor: more ? String(seqOf(last)) : null };
}

export const cursorOf = (query: PaginationQuery): number | undefined =>
  query.cursor === undefined ? undefined : Number(query.cursor);

/**
 * Newest first, spelled as the `(…, seq DESC NULLS LAST)` indexes are. A bare `DESC` means
 * NULLS FIRST in PostgreSQL, which those indexes cannot serve even though `seq` is never null,
 * so every page sorted the whole category: 290 ms at 1,000,000 products, against 0.1 ms.
 */
export const newestFirst = (seq: AnyColumn): SQL => sql`${seq} desc nulls last`;

/**
 * Oldest first, as those same indexes read backwards: `ASC NULLS FIRST` is the exact reverse of
 * `DESC NULLS LAST`, where a bare `ASC` (NULLS LAST) would make PostgreSQL sort the range.
 */
export const oldestFirst = (seq: AnyColumn): SQL => sql`${seq} asc nulls first`;
