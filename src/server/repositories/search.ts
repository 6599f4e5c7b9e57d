/**
 * The search (issue 18, decision 023): free text over a phone's model and description, the
 * filters, three sorts, keyset paging by the sort's own cursor, and a count capped at
 * SEARCH_COUNT_CAP. Every condition is one an index serves (migration 0006): the words with
 * the usual filters in one GIN index, close matches' trigrams, the location's trigrams, and the
 * sorts' b-tree indexes, which the planner walks when matches are many.
 *
 * Words first match as typed: every word of the query is a word of the phone's model or
 * description, in any order and case (full text, PostgreSQL's own parser on both sides). Only
 * when no phone matches so do they match loosely: each word stands for the catalog's words like
 * it by trigram word similarity (SEARCH_WORD_SIMILARITY), which forgives a missing, swapped or
 * wrong letter and a word cut short: 'iphnoe' and 'iphon' find iPhones, and 'note' does not
 * find every "not". Those words come from a table of the catalog's words, and the search runs
 * on them as on words typed right (the full-text index), whatever the catalog's size.
 */
import { and, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { SearchQuery } from '../../shared/api';
import { SEARCH_COUNT_CAP, SEARCH_WORDS_MAX, USER_STATUS_VERIFIED } from '../../shared/constants';
import type { Product } from '../../shared/entities';
import { type Db, rowsOf } from '../db/client';
import { products, searchTerms, users } from '../db/schema';
import type {
  CountQuery,
  CountsNow,
  PageOrder,
  SearchCounts,
  WordsAlternative,
} from '../search/search-counts';
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

/** The most words of the catalog that one mistyped word may stand for. */
const CANDIDATES_PER_WORD = 5;
/** How much less alike than the likest a word may be and still be one of those. */
const CANDIDATE_MARGIN = 0.1;

/**
 * A word loosely, as a full-text query: the catalog's words like it (pg_trgm's `<%`, word
 * similarity at least the connection's threshold, so a word cut short matches too), the closest
 * CANDIDATES_PER_WORD of them, any of which may match. They are looked up in `search_terms`, the
 * catalog's distinct words (migration 0008), so a common word mistyped costs a look-up in a
 * table of thousands and then an ordinary full-text search, never a trigram scan of every
 * phone. A word with a digit stays exact (a 12 is not a 13) and so does one of one or two
 * letters (too few trigrams to be alike): it must begin a word of the text (a prefix query).
 * Null when no word of the catalog is like it.
 */
async function wordLoosely(db: Db, word: string): Promise<Loose | null> {
  if (/\d/.test(word) || word.length < 3) {
    // The word as the catalog's words are made, for the counts kept beside the table: itself
    // when it is lower-case ASCII letters and digits (the 'simple' configuration only lowers).
    const [made] = /^[a-z0-9]+$/.test(word)
      ? [{ lexemes: [word] }]
      : await rowsOf<{ lexemes: string[] }>(
          db,
          sql`select tsvector_to_array(to_tsvector('simple', ${word})) as lexemes`,
        );
    const lexemes = made?.lexemes ?? [];
    return {
      sql: sql`to_tsquery('simple', ${`${word}:*`})`,
      alternatives: lexemes.length === 1 ? [{ prefix: lexemes[0] as string }] : null,
    };
  }
  const found = await db
    .select({
      term: searchTerms.term,
      // Word similarity (a word cut short scores high) plus the whole words' similarity, which
      // breaks its ties: 'glaxy' is as word-like 'galaxy' as 'glass', but more like 'galaxy'.
      similarity: sql<number>`(word_similarity(${word}, ${searchTerms.term}) + similarity(${word}, ${searchTerms.term}))::float8`,
      // The term as the counts beside the table take it (third: the order is by the second).
      lexemes: sql<string[]>`tsvector_to_array(to_tsvector('simple', ${searchTerms.term}))`,
    })
    .from(searchTerms)
    .where(sql`${word} <% ${searchTerms.term}`)
    .orderBy(sql`2 desc`, searchTerms.term)
    .limit(CANDIDATES_PER_WORD);
  // Only the words about as like it as the likest: a word typed whole ('withdrawn') does not
  // also stand for a short word that merely shares its first letters ('with'), nor 'glaxy'
  // for 'glass' beside 'galaxy'.
  const best = found[0]?.similarity ?? 0;
  const like = found.filter((f) => f.similarity >= best - CANDIDATE_MARGIN);
  if (like.length === 0) return null;
  return {
    sql: sql`(${sql.join(
      like.map(({ term }) => sql`plainto_tsquery('simple', ${term})`),
      sql` || `,
    )})`,
    alternatives: like.every((l) => l.lexemes.length > 0)
      ? like.map((l) => ({ all: l.lexemes }))
      : null,
  };
}

/**
 * A word loosely: its SQL, and the same as the counts beside the table take it (null when they
 * cannot take it exactly: PostgreSQL then counts).
 */
type Loose = { sql: SQL; alternatives: WordsAlternative[] | null };

/**
 * Every word loosely (each any of its candidates), or null when one of them is like nothing;
 * with the clauses the counts beside the table take (null when one of them cannot be taken).
 */
async function wordsLoosely(
  db: Db,
  words: string[],
): Promise<{ where: SQL; clauses: WordsAlternative[][] | null } | null> {
  // `_` counts as a letter in the query's words but separates words in the catalog's.
  // Each once, and no more of them than of words: "a_a_a_…" is one word.
  const parts = [...new Set(words.flatMap((w) => w.split('_')).filter((w) => w.length > 0))].slice(
    0,
    SEARCH_WORDS_MAX,
  );
  const each: Loose[] = [];
  for (const word of parts) {
    const loose = await wordLoosely(db, word);
    if (!loose) return null;
    each.push(loose);
  }
  if (each.length === 0) return null;
  const clauses = each.map((l) => l.alternatives);
  return {
    where: sql`${products.searchVector} @@ (${sql.join(
      each.map((l) => l.sql),
      sql` && `,
    )})`,
    clauses: clauses.every((c) => c !== null) ? (clauses as WordsAlternative[][]) : null,
  };
}

/**
 * Every filter but the words, as the counts beside the table take them; `location` as the
 * database's `lower()` folds the query's (as ILIKE does).
 */
export const countFilters = (
  q: Omit<SearchQuery, 'limit' | 'cursor'>,
  location: string | undefined,
): CountQuery => ({
  brand: q.brand,
  ram: q.ram,
  storage: q.storage,
  condition: q.condition,
  minPriceCents: q.minPrice === undefined ? undefined : toCents(q.minPrice),
  maxPriceCents: q.maxPrice === undefined ? undefined : toCents(q.maxPrice),
  minBattery: q.minBattery,
  minBatteryHealth: q.minBatteryHealth,
  location,
  verified: q.verified === true,
});

/** Every filter but the words and the cursor. */
function filters(q: SearchQuery): SQL[] {
  const where: SQL[] = [];
  // Sold phones when asked; a withdrawn one never (issue 19: off the market, its seller's own).
  where.push(
    q.includeSold
      ? inArray(products.status, ['available', 'sold'])
      : eq(products.status, 'available'),
  );
  if (q.brand) where.push(inArray(products.categoryId, q.brand));
  if (q.ram) where.push(inArray(products.ram, q.ram));
  if (q.storage) where.push(inArray(products.storage, q.storage));
  if (q.condition) where.push(inArray(products.condition, q.condition));
  if (q.minPrice !== undefined) where.push(gte(products.resellPriceCents, toCents(q.minPrice)));
  if (q.maxPrice !== undefined) where.push(lte(products.resellPriceCents, toCents(q.maxPrice)));
  if (q.minBattery !== undefined) where.push(gte(products.battery, q.minBattery));
  // Battery health at least N percent: a phone whose seller stated none does not match (null).
  if (q.minBatteryHealth !== undefined) where.push(gte(products.batteryHealth, q.minBatteryHealth));
  if (q.location) where.push(sql`${products.location} ilike ${`%${likeLiteral(q.location)}%`}`);
  if (q.verified) where.push(eq(users.userStatus, USER_STATUS_VERIFIED));
  return where;
}

/**
 * The sort's order and the condition that starts a page after `cursor`; and the same for the
 * index beside the table (`order`).
 */
function ordering(q: SearchQuery): { orderBy: SQL[]; after: SQL | undefined; order: PageOrder } {
  const [first = '', second] = (q.cursor ?? '').split('-');
  if (q.sort === 'newest') {
    return {
      // Spelled as the indexes are (see newestFirst in page.ts).
      orderBy: [sql`${products.seq} desc nulls last`],
      after: q.cursor ? sql`${products.seq} < ${Number(first)}` : undefined,
      order: { sort: 'newest', after: q.cursor ? { seq: Number(first) } : undefined },
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
    order: {
      sort: q.sort,
      after: second === undefined ? undefined : { price: Number(first), seq: Number(second) },
    },
  };
}

const cursorOfRow = (q: SearchQuery, row: typeof products.$inferSelect) =>
  q.sort === 'newest' ? String(row.seq) : `${row.resellPriceCents}-${row.seq}`;

/**
 * A page of phones with their sellers (the join the verified filter and the answer's seller
 * fields need), in two steps: the page's ids first, then only those phones with their
 * per-card columns (the seller's rating, the price note). In one step, a plan that sorts the
 * matches (a rare filter, a price order) worked out those columns for every match before
 * keeping a page of them: 300 matches, 300 price notes.
 */
const pageOf = (db: Db, where: SQL[], orderBy: SQL[], limit: number) => {
  const page = db
    .select({ id: products.id })
    .from(products)
    .innerJoin(users, eq(users.email, products.sellerEmail))
    .where(and(...where))
    .orderBy(...orderBy)
    .limit(limit);
  return cardsOf(db, inArray(products.id, page), orderBy);
};

/** The page's phones with their per-card columns, in the sort's order. */
const cardsOf = (db: Db, which: SQL, orderBy: SQL[]) =>
  db
    .select({ product: products, ...productSellerColumns() })
    .from(products)
    .innerJoin(users, eq(users.email, products.sellerEmail))
    .where(which)
    .orderBy(...orderBy);

async function countOf(db: Db, where: SQL[], cap: number): Promise<number> {
  const capped = db
    .select({ one: sql`1` })
    .from(products)
    .innerJoin(users, eq(users.email, products.sellerEmail))
    .where(and(...where))
    .limit(cap + 1)
    .as('capped');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(capped);
  return row?.n ?? 0;
}

/**
 * Whether every word of `q`, made a word as the catalog's are (`to_tsvector('simple', …)`), is a
 * word of the catalog. When one is not ('iphnoe'), no phone can match as typed, and the search
 * goes to close matches without asking the phones: a `limit 1` look for a match that does not
 * exist walked every phone for sale in order (250 ms at a million), as the planner expected an
 * early hit.
 */
async function wordsAsKnown(db: Db, q: string): Promise<{ lexemes: string[]; allKnown: boolean }> {
  const rows = await db
    .select({
      word: sql<string>`typed.word`,
      known: sql<boolean>`exists (select 1 from ${searchTerms} where ${searchTerms.term} = typed.word)`,
    })
    .from(sql`unnest(tsvector_to_array(to_tsvector('simple', ${q}))) as typed(word)`);
  return { lexemes: rows.map((r) => r.word), allKnown: rows.every((r) => r.known) };
}

async function anyMatch(
  db: Db,
  where: SQL[],
  counted: CountQuery | null,
  now: CountsNow | null,
): Promise<boolean> {
  const found = counted && now?.count(counted, 0);
  if (found !== undefined && found !== null) return found > 0;
  const [row] = await db
    .select({ one: sql`1` })
    .from(products)
    .innerJoin(users, eq(users.email, products.sellerEmail))
    .where(and(...where))
    .limit(1);
  return row !== undefined;
}

/**
 * `counts`: the counts kept beside the table (search/search-counts.ts), used when they can answer
 * for sure; otherwise PostgreSQL counts. `cap`: where the count stops (the tests set it low, so
 * that a small catalog has searches with more matches than it).
 */
export async function searchProducts(
  db: Db,
  q: SearchQuery,
  counts?: SearchCounts,
  cap: number = SEARCH_COUNT_CAP,
): Promise<SearchAnswer> {
  // The index beside the table, once current: asked once, for every step of this search. It
  // holds only the phones for sale (decision 059): a search that includes sold ones is the
  // database's alone.
  const now = q.includeSold ? null : ((await counts?.now()) ?? null);
  const words = searchWords(q.q);
  const base = filters(q);
  const location =
    now && q.location
      ? (await rowsOf<{ folded: string }>(db, sql`select lower(${q.location}) as folded`))[0]
          ?.folded
      : undefined;
  let where = base;
  // What the counts beside the table are asked: null when they cannot take these words exactly
  // (or are not asked).
  let counted: CountQuery | null = now && countFilters(q, location);
  let closeMatches = false;
  if (q.q && words.length > 0) {
    const typed = await wordsAsKnown(db, q.q);
    where = [...base, wordsAsTyped(q.q)];
    // No word at all (only signs): the full-text query is empty and matches nothing.
    if (counted) {
      counted.words =
        typed.lexemes.length === 0 ? 'none' : typed.lexemes.map((w) => [{ all: [w] }]);
    }
    // Loosely only when nothing matches as typed (checked on every page, so paging stays in one
    // mode).
    if (!typed.allKnown || !(await anyMatch(db, where, counted, now))) {
      const loose = await wordsLoosely(db, words);
      where = [...base, loose?.where ?? sql`false`];
      counted =
        counted &&
        (!loose
          ? { ...counted, words: 'none' }
          : loose.clauses
            ? { ...counted, words: loose.clauses }
            : null);
      closeMatches = true;
    }
  }
  const { orderBy, after, order } = ordering(q);
  // The index beside the table counts, and sorts the matches itself when they are within the
  // count's cap: the database would walk its sort's index far to find a few (or sort them all).
  const beside = counted && now?.page(counted, order, q.limit + 1, cap);
  // The index's page read with the search's own conditions: a phone sold, withdrawn or changed
  // since it answered is not shown, and a page that came back short is asked of the database.
  const fromIndex =
    beside && beside.seqs.length > 0
      ? await cardsOf(db, and(inArray(products.seq, beside.seqs), ...where) as SQL, orderBy)
      : [];
  const byIndex = beside ? fromIndex.length === beside.seqs.length : false;
  const rows = byIndex
    ? fromIndex
    : await pageOf(db, after ? [...where, after] : where, orderBy, q.limit + 1);
  counts?.tally(byIndex ? 'server' : 'database');
  // Counted on the first page only, and only when the page does not hold every match already.
  const count =
    q.cursor !== undefined
      ? null
      : rows.length <= q.limit
        ? rows.length
        : byIndex && beside
          ? beside.total
          : await countOf(db, where, cap);
  const kept = rows.slice(0, q.limit);
  const last = kept.at(-1);
  return {
    count: count === null ? null : Math.min(count, cap),
    countCapped: count !== null && count > cap,
    closeMatches,
    products: kept.map(productOf),
    nextCursor: rows.length > q.limit && last ? cursorOfRow(q, last.product) : null,
  };
}
