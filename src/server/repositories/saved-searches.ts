/**
 * A buyer's saved searches (issue 33, decision 049): saved, listed with what they match now and
 * what they told of since last opened, edited, paused and deleted, each only by its owner; and
 * for a seller, how many buyers' searches a phone would match.
 */
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { SavedSearch, SaveSearch, WaitingBuyersQuery } from '../../shared/api';
import { SAVED_SEARCHES_MAX } from '../../shared/constants';
import { type Db, rowsOf } from '../db/client';
import { savedSearches, users } from '../db/schema';
import { DomainError } from '../domain/domain-error';
import type { Caller } from '../plugins/auth';
import { canonicalSearch, madeByDatabase, parseSearch } from '../saved-searches/criteria';
import type { SavedSearchIndex } from '../saved-searches/saved-search-index';
import type { SearchCounts } from '../search/search-counts';
import { toCents } from './money';
import { searchProducts } from './search';

export const TOO_MANY_SAVED = `You can save at most ${SAVED_SEARCHES_MAX} searches. Delete one to save another.`;
const NO_SUCH = 'No such saved search';

type Row = typeof savedSearches.$inferSelect;

/** Saves the search for the caller; answers its id. */
export async function saveSearch(db: Db, userId: string, input: SaveSearch): Promise<string> {
  const query = parseSearch(input.search);
  const made = await madeByDatabase(db, query);
  return db.transaction(async (tx) => {
    // The person's row locked: two saves at once cannot both be the 25th.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const [held] = await tx
      .select({ n: count() })
      .from(savedSearches)
      .where(eq(savedSearches.userId, userId));
    if ((held?.n ?? 0) >= SAVED_SEARCHES_MAX) throw DomainError.conflict(TOO_MANY_SAVED);
    const [row] = await tx
      .insert(savedSearches)
      .values({
        userId,
        name: input.name,
        search: canonicalSearch(query),
        words: made.words,
        locationLower: made.locationLower,
        frequency: input.frequency,
      })
      .returning({ id: savedSearches.id });
    return (row as { id: string }).id;
  });
}

/** The caller's saved search, or a 404 (another's is as unknown as a missing one). */
async function ownSearch(db: Db, userId: string, id: string): Promise<Row> {
  const [row] = await db
    .select()
    .from(savedSearches)
    .where(and(eq(savedSearches.id, id), eq(savedSearches.userId, userId)));
  if (!row) throw DomainError.notFound(NO_SUCH);
  return row;
}

/** What the page shows of a saved search: what it matches now, and what it told of since seen. */
async function shown(db: Db, row: Row, counts: SearchCounts | undefined): Promise<SavedSearch> {
  const query = parseSearch(row.search);
  const [answer, [fresh]] = await Promise.all([
    searchProducts(db, { ...query, limit: 1 }, counts),
    rowsOf<{ n: number }>(
      db,
      sql`select count(*)::int as n from saved_search_alerts a
          join products p on p.id = a.product_id and p.status = 'available'
          where a.user_id = ${row.userId} and ${row.id}::uuid = any(a.search_ids)
            and greatest(a.alerted_at, coalesce(a.drop_alerted_at, a.alerted_at)) > ${row.seenAt.toISOString()}::timestamptz`,
    ),
  ]);
  return {
    _id: row.id,
    name: row.name,
    search: row.search,
    frequency: row.frequency,
    paused: row.paused,
    createdAt: row.createdAt.toISOString(),
    // Close matches are not what it alerts of: they are not counted as its matches either.
    matching: answer.closeMatches ? 0 : (answer.count ?? 0),
    matchingCapped: !answer.closeMatches && answer.countCapped,
    newSinceSeen: fresh?.n ?? 0,
  };
}

export async function listSavedSearches(
  db: Db,
  userId: string,
  counts?: SearchCounts,
): Promise<SavedSearch[]> {
  const rows = await db
    .select()
    .from(savedSearches)
    .where(eq(savedSearches.userId, userId))
    .orderBy(desc(savedSearches.seq));
  const list: SavedSearch[] = [];
  // One at a time: 25 searches at once would take the pool's every connection.
  for (const row of rows) list.push(await shown(db, row, counts));
  return list;
}

export async function editSavedSearch(
  db: Db,
  userId: string,
  id: string,
  edit: { name?: string; frequency?: 'instant' | 'daily'; paused?: boolean },
  counts?: SearchCounts,
): Promise<SavedSearch> {
  await ownSearch(db, userId, id);
  const [row] = await db
    .update(savedSearches)
    .set(edit)
    .where(and(eq(savedSearches.id, id), eq(savedSearches.userId, userId)))
    .returning();
  if (!row) throw DomainError.notFound(NO_SUCH);
  return shown(db, row, counts);
}

export async function deleteSavedSearch(db: Db, userId: string, id: string): Promise<number> {
  const rows = await db
    .delete(savedSearches)
    .where(and(eq(savedSearches.id, id), eq(savedSearches.userId, userId)))
    .returning({ id: savedSearches.id });
  if (rows.length === 0) throw DomainError.notFound(NO_SUCH);
  return rows.length;
}

/** The owner opened it: what it told of until now is no longer new. */
export async function seeSavedSearch(db: Db, userId: string, id: string): Promise<void> {
  const rows = await db
    .update(savedSearches)
    .set({ seenAt: sql`now()` })
    .where(and(eq(savedSearches.id, id), eq(savedSearches.userId, userId)))
    .returning({ id: savedSearches.id });
  if (rows.length === 0) throw DomainError.notFound(NO_SUCH);
}

/**
 * How many buyers (accounts, never named) have a saved search the phone would match, the
 * caller's own searches left out. The words are its model and description, as a listing's are.
 */
export async function waitingBuyers(
  db: Db,
  index: SavedSearchIndex,
  caller: Caller,
  phone: WaitingBuyersQuery,
): Promise<number> {
  const [made] = await rowsOf<{ words: string[]; location_lower: string }>(
    db,
    sql`select tsvector_to_array(to_tsvector('simple', ${phone.modelName ?? ''} || ' ' || ${phone.description ?? ''})) as words,
               lower(${phone.location ?? ''}::text) as location_lower`,
  );
  const searches = await index.current();
  const owners = new Set(
    searches
      .match({
        categoryId: phone.categoryId,
        ram: phone.ram,
        storage: phone.storage,
        condition: phone.condition,
        priceCents: toCents(phone.price),
        battery: phone.battery ?? 0,
        batteryHealth: phone.batteryHealth ?? null,
        locationLower: made?.location_lower ?? '',
        verified: caller.userStatus === 'verified',
        words: new Set(made?.words ?? []),
      })
      .map((m) => m.owner),
  );
  owners.delete(caller.id);
  return owners.size;
}
