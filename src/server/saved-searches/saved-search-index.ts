/**
 * The saved searches in this server's memory, for the reverse matcher (decision 049), kept
 * current from the database: every change of a saved search is logged by its trigger (migration
 * 0026) under the shared side of an advisory lock, and the index reads the log on from where it
 * last read under the exclusive side, so every change it could miss has committed by then.
 * Before matching, the index reads what changed; an index not read for an hour (the log is
 * purged after a day) is read whole again.
 */
import { sql } from 'drizzle-orm';
import { type Db, rowsOf, type Tx } from '../db/client';
import { criteriaOf, parseSearch } from './criteria';
import { ReverseIndex } from './matcher';

/** The advisory lock the saved searches' trigger takes shared (migration 0026). */
const LOCK = 33033;
/** Read whole again when not read for this long (the log keeps a day). */
const RELOAD_MS = 60 * 60 * 1000;
/** Log entries kept this long. */
const LOG_KEPT = '1 day';

type Row = {
  id: string;
  user_id: string;
  search: string;
  words: string[];
  location_lower: string | null;
};

const columns = sql`id, user_id, search, words, location_lower`;

export class SavedSearchIndex {
  private index = new ReverseIndex<string>();
  private lastSeq = 0;
  private readAt = 0;
  private reading: Promise<ReverseIndex<string>> | null = null;

  constructor(private readonly db: Db) {}

  /** The index with every change committed before this call. */
  current(): Promise<ReverseIndex<string>> {
    // One read at a time; a call during one waits for the next, which sees its changes.
    const next = (this.reading ?? Promise.resolve()).then(() => this.read());
    const tracked = next.finally(() => {
      if (this.reading === tracked) this.reading = null;
    });
    this.reading = tracked;
    return tracked;
  }

  private async read(): Promise<ReverseIndex<string>> {
    const whole = this.readAt === 0 || Date.now() - this.readAt > RELOAD_MS;
    const started = Date.now();
    await this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${LOCK})`);
      if (whole) await this.readWhole(tx);
      else await this.readChanges(tx);
    });
    this.readAt = started;
    return this.index;
  }

  private async readWhole(tx: Tx): Promise<void> {
    const [last] = await rowsOf<{ seq: number | string | null }>(
      tx,
      sql`select max(seq) as seq from saved_search_changes`,
    );
    const rows = await rowsOf<Row>(tx, sql`select ${columns} from saved_searches where not paused`);
    const index = new ReverseIndex<string>();
    for (const row of rows) add(index, row);
    this.index = index;
    this.lastSeq = Number(last?.seq ?? 0);
  }

  private async readChanges(tx: Tx): Promise<void> {
    const changed = await rowsOf<{ search_id: string; seq: number | string }>(
      tx,
      sql`select search_id, seq from saved_search_changes where seq > ${this.lastSeq} order by seq`,
    );
    if (changed.length === 0) return;
    const ids = [...new Set(changed.map((c) => c.search_id))];
    const rows = await rowsOf<Row>(
      tx,
      sql`select ${columns} from saved_searches
          where id = any(${`{${ids.join(',')}}`}::uuid[]) and not paused`,
    );
    for (const id of ids) this.index.remove(id);
    for (const row of rows) add(this.index, row);
    this.lastSeq = Number(changed.at(-1)?.seq ?? this.lastSeq);
  }

  /** Forgets log entries older than a day (any server's timed work). */
  static async purge(db: Db): Promise<void> {
    await db.execute(
      sql`delete from saved_search_changes where created_at < now() - ${LOG_KEPT}::interval`,
    );
  }
}

function add(index: ReverseIndex<string>, row: Row): void {
  // Saved through the contract, so it parses; one that no longer does (a filter's values changed
  // since) is left out rather than failing every match.
  let query: ReturnType<typeof parseSearch>;
  try {
    query = parseSearch(row.search);
  } catch {
    return;
  }
  index.upsert(
    row.id,
    row.user_id,
    criteriaOf(query, { words: row.words, locationLower: row.location_lower }),
  );
}
