/**
 * A saved search's query string (the search call's, as the search page builds it) read as the
 * search reads it, written back in one canonical order, and turned into the matcher's criteria.
 */
import { sql } from 'drizzle-orm';
import { type SearchQuery, searchQuerySchema } from '../../shared/api';
import { SEARCH_SORTS } from '../../shared/constants';
import { type Db, rowsOf, type Tx } from '../db/client';
import { DomainError } from '../domain/domain-error';
import { countFilters, searchWords } from '../repositories/search';
import type { Criteria } from './matcher';

/** The search without its page (a saved search is every page of it). */
export type SavedQuery = Omit<SearchQuery, 'limit' | 'cursor'>;

const LISTS = ['brand', 'ram', 'storage', 'condition'] as const;
const NUMBERS = ['minPrice', 'maxPrice', 'minBattery', 'minBatteryHealth'] as const;

/** The query string read as the search call reads it; a 400 naming what is wrong. */
export function parseSearch(search: string): SavedQuery {
  const params = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const raw: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    if (key === 'limit' || key === 'cursor') continue;
    const all = params.getAll(key);
    raw[key] = all.length === 1 ? (all[0] as string) : all;
  }
  const parsed = searchQuerySchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) =>
      i.path.length > 0 && !i.message.startsWith(String(i.path[0]))
        ? `${i.path.join('.')}: ${i.message}`
        : i.message,
    );
    throw DomainError.badRequest(`search: ${[...new Set(problems)].join('; ')}`);
  }
  const { limit: _limit, cursor: _cursor, ...query } = parsed.data;
  return query;
}

/** The query in one order, each value as the search call takes it: equal searches, equal strings. */
export function canonicalSearch(q: SavedQuery): string {
  const params = new URLSearchParams();
  if (q.q) params.set('q', q.q);
  for (const key of LISTS)
    for (const value of [...(q[key] ?? [])].sort()) params.append(key, value);
  for (const key of NUMBERS) if (q[key] !== undefined) params.set(key, String(q[key]));
  if (q.location) params.set('location', q.location);
  if (q.verified) params.set('verified', 'true');
  if (q.includeSold) params.set('includeSold', 'true');
  if (q.sort !== SEARCH_SORTS[0]) params.set('sort', q.sort);
  return params.toString();
}

/**
 * What the matcher needs that the database makes: the words as the catalog's are made (the
 * search matches `plainto_tsquery('simple', q)`, these same words), the location as `lower()`
 * folds it. A text of signs only has no word a phone can have: refused, as it would match nothing.
 */
export async function madeByDatabase(
  db: Db | Tx,
  q: SavedQuery,
): Promise<{ words: string[]; locationLower: string | null }> {
  const typed = searchWords(q.q).length > 0 ? (q.q as string) : '';
  const [row] = await rowsOf<{ words: string[]; location_lower: string | null }>(
    db,
    sql`select tsvector_to_array(to_tsvector('simple', ${typed})) as words,
               lower(${q.location ?? null}::text) as location_lower`,
  );
  const words = row?.words ?? [];
  if (typed && words.length === 0)
    throw DomainError.badRequest('search: its words are not words a phone can have');
  return { words, locationLower: row?.location_lower ?? null };
}

/** The matcher's criteria of a saved query: the search's own filters, with the words it makes. */
export function criteriaOf(
  q: SavedQuery,
  made: { words: readonly string[]; locationLower: string | null },
): Criteria {
  const { words: _none, ...filters } = countFilters(q, made.locationLower ?? undefined);
  return { ...filters, words: made.words };
}
