/**
 * Limits counted in PostgreSQL (`rate_limit_hits`), shared by every server on the database when
 * no Redis is configured. Each event is one upsert that opens, restarts or adds to the key's
 * window and returns the count, so two servers counting the same key at once both see the
 * other's event. Times are the database's, so servers whose clocks differ agree on windows.
 */
import { eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client';
import { rateLimitHits } from '../db/schema';
import { type CounterBackend, type Hit, type LimitBackend, storedKey } from './limit-backend';

/** How often, at most, a server removes rows whose window has passed (piggybacked on a hit). */
const PRUNE_EVERY_MS = 60_000;
/** Rows removed in one statement: a long backlog goes in short steps that hold few locks. */
const PRUNE_BATCH = 1000;

export class PostgresLimitBackend implements LimitBackend {
  readonly kind = 'postgres';
  private lastPrune = 0;
  private pruning: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    /** Where a failed prune is reported (it is tried again a minute later). */
    private readonly onPruneError: (err: unknown) => void = () => {},
  ) {}

  counter(name: string): CounterBackend {
    return {
      hit: (key, windowMs) => this.hit(storedKey(name, key), windowMs),
      reset: async (key) => {
        await this.db.delete(rateLimitHits).where(eq(rateLimitHits.key, storedKey(name, key)));
      },
    };
  }

  private async hit(key: string, windowMs: number): Promise<Hit> {
    const [row] = await rowsOf<{ count: number; ttl_ms: number }>(
      this.db,
      sql`insert into rate_limit_hits as h (key, count, reset_at)
          values (${key}, 1, now() + ${windowMs}::integer * interval '1 millisecond')
          on conflict (key) do update set
            count = case when h.reset_at <= now() then 1 else h.count + 1 end,
            reset_at = case when h.reset_at <= now() then excluded.reset_at else h.reset_at end
          returning h.count, ceil(extract(epoch from h.reset_at - now()) * 1000)::integer as ttl_ms`,
    );
    if (!row) throw new Error('rate_limit_hits: the upsert returned no row');
    this.pruneNowAndThen();
    return { count: row.count, ttlMs: row.ttl_ms };
  }

  /**
   * Removes rows whose window has passed, at most once a minute per server and in the
   * background: a hit never waits for it, and the index on `reset_at` finds them without
   * reading the table. Rows another server is pruning or counting are skipped, not waited for.
   */
  private pruneNowAndThen() {
    const now = Date.now();
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    this.pruning = (async () => {
      let removed = PRUNE_BATCH;
      while (removed === PRUNE_BATCH) {
        const rows = await rowsOf<{ key: string }>(
          this.db,
          sql`delete from rate_limit_hits where key in (
                select key from rate_limit_hits where reset_at < now()
                order by reset_at limit ${PRUNE_BATCH} for update skip locked)
              returning key`,
        );
        removed = rows.length;
      }
    })().catch(this.onPruneError);
  }

  /** Waits for a prune under way, so the database can be closed after. */
  async close(): Promise<void> {
    await this.pruning;
  }
}
