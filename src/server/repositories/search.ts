/**
 * The search (issue 18, decision 023): free text over a phone's model and description, the
 * filters, three sorts, keyset paging by the sort's own cursor, and a count capped at
 * SEARCH_COUNT_CAP. Every condition is one an index serves (migration 0006): the words with
 * the usual filters in one GIN index, close matches' trigrams, the location's trigrams, and the
 * sorts' b-tree indexes, which the planner walks when matches are many.
 *
 * Words first match as typed: every word of the query is a word of the phone's model or
 * description, in any order and case (full text, PostgreSQL's own parser on both sides). Only
 * when no phone matches so do they match loosely, by trigram word similarity
 * (SEARCH_WORD_SIMILARITY), which forgives a missing, swapped or wrong letter and a word cut
 * short: 'iphnoe' and 'iphon' find iPhones, and 'note' does not find every "not".
 */
import { and, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { SearchQuery } from '../../shared/api';
import { SEARCH_COUNT_CAP, SEARCH_WORDS_MAX, USER_STATUS_VERIFIED } from '../../shared/constants';
import type { Product } from '../../shared/entities';
import type { Db } from '../db/client';
import { products, users } from '../db/schema';
import { toCents } from './money';
import { productOf, productSellerColumns } from './products';

export type SearchAnswer = {
  count: number | null;
  countCapped: boolean;
  closeMatches: boolean;
  products: Product[];
  nextCursor: string | null;
};

/** A word longer than this is not a phone's word; its first letters still count. */
const WORD_MAX = 40;

/**
 * The query's words for close matches: letters, digits and `_` (which the database's regular
 * expressions count as a word's letter too), lower case, each once, at most SEARCH_WORDS_MAX.
 */
export function searchWords(q: string | undefined): string[] {
  const words = (q ?? '').toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  return [...new Set(words.map((w) => w.slice(0, WORD_MAX)))].slice(0, SEARCH_WORDS_MAX);
}

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
const likeLiteral = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Every word as typed: full text with the 'simple' configuration (lower case, no stemming, no
 * stop words), as the `search_vector` column was made. `plainto_tsquery` parses the text itself:
 * no character of it is an operator.
 */
const wordsAsTyped = (q: string): SQL =>
  sql`${products.searchVector} @@ plainto_tsquery('simple', ${q})`;

/**
 * A word loosely: a word of the text is like it (pg_trgm's `%>`, word similarity at least the
 * connection's threshold), so a word cut short matches too. A word with a digit stays exact (a
 * 12 is not a 13) and so does one of one or two letters (too few trigrams to be alike): it must
 * begin a word of the text. The LIKE lets the trigram index find the rows; the regex (`\m`, a
 * word's start) decides. Words hold only letters, digits and `_`: no more escaping than LIKE's.
 */
const wordLoosely = (word: string): SQL =>
  /\d/.test(word) || word.length < 3
    ? sql`(${products.searchText} like ${`%${likeLiteral(word)}%`} and ${products.searchText} ~ ${`\\m${word}`})`
    : sql`${products.searchText} %> ${word}`;

/** Every filter but the words and the cursor. */
function filters(q: SearchQuery): SQL[] {
  const where: SQL[] = [];
  if (!q.includeSold) where.push(eq(products.status, 'available'));
  if (q.brand) where.push(inArray(products.categoryId, q.brand));
  if (q.ram) where.push(inArray(products.ram, q.ram));
  if (q.storage) where.push(inArray(products.storage, q.storage));
  if (q.condition) where.push(inArray(products.condition, q.condition));
  if (q.minPrice !== undefined) where.push(gte(products.resellPriceCents, toCents(q.minPrice)));
  if (q.maxPrice !== undefined) where.push(lte(products.resellPriceCents, toCents(q.maxPrice)));
  if (q.minBattery !== undefined) where.push(gte(products.battery, q.minBattery));
  if (q.location) where.push(sql`${products.location} ilike ${`%${likeLiteral(q.location)}%`}`);
  if (q.verified) where.push(eq(users.userStatus, USER_STATUS_VERIFIED));
  return where;
}

/** The sort's order and the condition that starts a page after `cursor`. */
function ordering(q: SearchQuery): { orderBy: SQL[]; after: SQL | undefined } {
  const [first = '', second] = (q.cursor ?? '').split('-');
  if (q.sort === 'newest') {
    return {
      // Spelled as the indexes are (see newestFirst in page.ts).
      orderBy: [sql`${products.seq} desc nulls last`],
      after: q.cursor ? sql`${products.seq} < ${Number(first)}` : undefined,
    };
  }
  const asc = q.sort === 'price-asc';
  // A price cursor is `cents-seq`; a bare number (a newest-first cursor) starts over.
  const after =
    second === undefined
      ? undefined
      : asc
        ? sql`(${products.resellPriceCents}, ${products.seq}) > (${Number(first)}, ${Number(second)})`
        : sql`(${products.resellPriceCents}, ${products.seq}) < (${Number(first)}, ${Number(second)})`;
  return {
    orderBy: asc
      ? [sql`${products.resellPriceCents} asc`, sql`${products.seq} asc`]
      : [sql`${products.resellPriceCents} desc`, sql`${products.seq} desc`],
    after,
  };
}

const cursorOfRow = (q: SearchQuery, row: typeof products.$inferSelect) =>
  q.sort === 'newest' ? String(row.seq) : `${row.resellPriceCents}-${row.seq}`;

/** Phones and their sellers (the join the verified filter and the answer's seller fields need). */
const fromProducts = (db: Db, where: SQL[]) =>
  db
    .select({ product: products, ...productSellerColumns() })
    .from(products)
    .innerJoin(users, eq(users.email, products.sellerEmail))
    .where(and(...where));

async function countOf(db: Db, where: SQL[]): Promise<number> {
  const capped = db
    .select({ one: sql`1` })
    .from(products)
    .innerJoin(users, eq(users.email, products.sellerEmail))
    .where(and(...where))
    .limit(SEARCH_COUNT_CAP + 1)
    .as('capped');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(capped);
  return row?.n ?? 0;
}

async function anyMatch(db: Db, where: SQL[]): Promise<boolean> {
  const [row] = await db
    .select({ one: sql`1` })
    .from(products)
    .innerJoin(users, eq(users.email, products.sellerEmail))
    .where(and(...where))
    .limit(1);
  return row !== undefined;
}

export async function searchProducts(db: Db, q: SearchQuery): Promise<SearchAnswer> {
  const words = searchWords(q.q);
  const base = filters(q);
  let where = q.q && words.length > 0 ? [...base, wordsAsTyped(q.q)] : base;
  let closeMatches = false;
  // Loosely only when nothing matches as typed (checked on every page, so paging stays in one mode).
  if (words.length > 0 && !(await anyMatch(db, where))) {
    where = [...base, ...words.map(wordLoosely)];
    closeMatches = true;
  }
  const { orderBy, after } = ordering(q);
  const rows = await fromProducts(db, after ? [...where, after] : where)
    .orderBy(...orderBy)
    .limit(q.limit + 1);
  // Counted on the first page only, and only when the page does not hold every match already.
  const count =
    q.cursor !== undefined ? null : rows.length <= q.limit ? rows.length : await countOf(db, where);
  const kept = rows.slice(0, q.limit);
  const last = kept.at(-1);
  return {
    count: count === null ? null : Math.min(count, SEARCH_COUNT_CAP),
    countCapped: count !== null && count > SEARCH_COUNT_CAP,
    closeMatches,
    products: kept.map(productOf),
    nextCursor: rows.length > q.limit && last ? cursorOfRow(q, last.product) : null,
  };
}
