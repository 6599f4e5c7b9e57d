/**
 * Where every limit counts (the routes' rate limits, the sign-in lockout, the sign-up limits,
 * the identity provider's own limiter), chosen once at start: Redis when REDIS_URL is set,
 * PostgreSQL when the database is PostgreSQL, otherwise this process's memory. With either of
 * the first two, N servers together allow what one allows (decision 030).
 *
 * Each limit is a named counter of events per key in fixed windows (limit-backend.ts), and says
 * what it does while its store cannot count.
 */
import { LRUCache } from 'lru-cache';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { levelOfFailure } from '../db/unavailable';
import { ServiceUnavailableError } from '../domain/domain-error';
import type { Hit, LimitBackend } from './limit-backend';
import { MemoryLimitBackend } from './memory-limit-backend';
import { PostgresLimitBackend } from './postgres-limit-backend';
import { RedisLimitBackend } from './redis-limit-backend';

/**
 * What a limit does when its store cannot count (Redis down, PostgreSQL restarting):
 * - 'allow': the call goes through uncounted. For limits against floods and cost (tokens,
 *   uploads, searches, sign-ups): an outage of the store must not become an outage of the site.
 * - 'refuse': the call is answered 503. For limits against guessing (the sign-in lockout, cards
 *   tried against one payment intent, handover codes): an outage must not open the door to
 *   guessing a password, a card or a code.
 */
export type WhenUncounted = 'allow' | 'refuse';

/** A limit that cannot count just now and refuses rather than let a guess through. */
export class LimitsUnavailableError extends ServiceUnavailableError {
  constructor(cause: unknown) {
    super('This cannot be checked just now. Try again in a moment.', { cause });
  }
}

export interface Counter {
  /**
   * Counts one event for the key. When the store fails: null (not counted) for a limit that
   * allows, `LimitsUnavailableError` for one that refuses.
   */
  hit(key: string, windowMs: number, max?: number): Promise<Hit | null>;
  /** Forgets the key's events (a successful sign-in clears its tries); a failure is only logged. */
  reset(key: string): Promise<void>;
}

type Log = {
  info: (details: object, message: string) => void;
  warn: (details: object, message: string) => void;
  error: (details: object, message: string) => void;
};

const consoleLog: Log = {
  info: (details, message) => console.info(message, details),
  warn: (details, message) => console.warn(message, details),
  error: (details, message) => console.error(message, details),
};

/** Keys over their limit a shared store's counter remembers in this process. */
const OVER_KEYS_KEPT = 10_000;

/** Keys a memory counter keeps unless its limit says otherwise (the lockout's bound of old). */
const MAX_KEYS = 20_000;

export class LimitStore {
  /** Whether the last call to the store failed: an outage is logged once, not per request. */
  private failing = false;

  constructor(
    private readonly backend: LimitBackend,
    /** The server's log once it has one (app.ts sets it). */
    public log: Log = consoleLog,
  ) {}

  get kind(): LimitBackend['kind'] {
    return this.backend.kind;
  }

  counter(
    name: string,
    { whenUncounted, maxKeys = MAX_KEYS }: { whenUncounted: WhenUncounted; maxKeys?: number },
  ): Counter {
    const counts = this.backend.counter(name, maxKeys);
    // A key known to be over its limit (given `max`) stays refused here until its window ends,
    // without asking a shared store again: a flood of refused calls costs no write to Redis or
    // PostgreSQL. Nothing lets a key over its limit back under it early, so this never refuses
    // what the store would allow (a reset clears it).
    const over =
      this.backend.kind === 'memory'
        ? null
        : new LRUCache<string, { count: number; until: number }>({ max: OVER_KEYS_KEPT });
    return {
      hit: async (key, windowMs, max) => {
        const known = over?.get(key);
        if (known && known.until > Date.now()) {
          return { count: known.count, ttlMs: known.until - Date.now() };
        }
        try {
          const hit = await counts.hit(key, windowMs);
          this.answered();
          if (over && max !== undefined && hit.count > max) {
            over.set(key, { count: hit.count, until: Date.now() + hit.ttlMs });
          }
          return hit;
        } catch (err) {
          this.failed(err);
          if (whenUncounted === 'refuse') throw new LimitsUnavailableError(err);
          return null;
        }
      },
      reset: async (key) => {
        over?.delete(key);
        try {
          await counts.reset(key);
          this.answered();
        } catch (err) {
          // The key's count stays until its window ends: a retry cannot do better.
          this.failed(err);
        }
      },
    };
  }

  close(): Promise<void> {
    return this.backend.close();
  }

  private failed(err: unknown) {
    if (this.failing) return;
    this.failing = true;
    this.log[levelOfFailure(err)](
      { err, store: this.kind },
      'limits cannot be counted: flood limits let calls through, guessing limits answer 503',
    );
  }

  private answered() {
    if (!this.failing) return;
    this.failing = false;
    this.log.info({ store: this.kind }, 'limits are counted again');
  }
}

/** The store this server's limits count in, by its configuration (see the module's comment). */
export async function openLimitStore(config: Config, database: Database): Promise<LimitStore> {
  if (config.REDIS_URL) return new LimitStore(await RedisLimitBackend.connect(config.REDIS_URL));
  if (database.kind === 'postgres') {
    const store: LimitStore = new LimitStore(
      new PostgresLimitBackend(database.db, (err) =>
        store.log[levelOfFailure(err)](
          { err },
          'expired limit counts not removed; tried again in a minute',
        ),
      ),
    );
    return store;
  }
  return new LimitStore(new MemoryLimitBackend());
}
