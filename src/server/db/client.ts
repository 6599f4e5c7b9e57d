/** Opens the database (PostgreSQL when a URL is given, otherwise PGlite on disk) and migrates it. */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { tightenTree } from '../private-files';
import { lockDataDir } from './data-dir-lock';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction of `Db`: what a function that runs inside its caller's transaction takes. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Rows of a raw query, on PGlite and PostgreSQL alike. */
export async function rowsOf<T>(db: Db | Tx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * The read replica's pool (DATABASE_READ_URL); none without one, and never on PGlite. Not
   * migrated (a replica replays the primary's migrations) and never written to:
   * plugins/read-routing.ts sends reads there, a person's only once it has replayed their
   * writes (decision 048).
   */
  readPool?: pg.Pool;
  close: () => Promise<void>;
  /**
   * Throws unless a primary answers within `timeoutMs` (issue 32): on PostgreSQL on a connection
   * of its own, so a health check is not queued behind a busy pool and says only whether the
   * database is reachable and writable (a standby answers `pg_is_in_recovery()` true).
   */
  ping: (timeoutMs: number) => Promise<void>;
  /** PGlite only: the whole database as a gzipped tarball (tests start from copies of it). */
  dump?: () => Promise<Blob>;
  /**
   * Hears `pg_notify(channel, payload)` from every server on this database, each after the
   * transaction that sent it commits, in commit order; answers how to stop. `onHeardAgain`: the
   * listener was lost and listens again (on PostgreSQL), so what was sent meanwhile was missed.
   */
  listen: (
    channel: string,
    onPayload: (payload: string) => void,
    onHeardAgain?: () => void,
  ) => Promise<() => Promise<void>>;
  /**
   * Runs `work` while no other server on this database runs its own start work (the migrations,
   * the demo seed, the secrets' check): any number of servers may start at the same moment.
   */
  exclusively: <T>(work: () => Promise<T>) => Promise<T>;
};

/**
 * The PostgreSQL advisory lock the start work holds (one 64-bit number for the whole app; the
 * digits spell nothing, they only must not collide with another app's on a shared server).
 */
export const START_LOCK = 7_316_204_993_155_001n;

/**
 * Runs `work` holding the start lock on a connection of its own, which ends the lock when it
 * ends: a server that dies mid-start (killed, its machine lost) never leaves it taken.
 */
async function holdingStartLock<T>(pool: pg.Pool, work: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let unlocked = false;
  try {
    await client.query('select pg_advisory_lock($1)', [START_LOCK.toString()]);
    try {
      return await work();
    } finally {
      unlocked = await client.query('select pg_advisory_unlock($1)', [START_LOCK.toString()]).then(
        () => true,
        () => false,
      );
    }
  } finally {
    // A connection that may still hold the lock is closed (which ends it), not pooled again.
    client.release(!unlocked);
  }
}

/**
 * How alike a searched word and a word of a phone must be (pg_trgm's word similarity, 0 to 1):
 * 0.4 lets a missing, swapped or wrong letter through ('iphon', 'iphnoe', 'glaxy') and keeps
 * unrelated words out (repositories/search.ts). Set on every connection.
 */
export const SEARCH_WORD_SIMILARITY = 0.4;

export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, 'migrations');

/** The extensions the migrations create, which PGlite must load to open our database. */
export const PGLITE_EXTENSIONS = { pg_trgm, btree_gin };

export type DatabaseOptions =
  /** `readUrl`: a read replica of `url`'s PostgreSQL. */
  | { url: string; readUrl?: string }
  /** `dataDir` undefined means in memory; `loadDataDir` starts from a dumped database. */
  | { dataDir?: string; loadDataDir?: Blob };

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if ('url' in options) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: 10,
      // While a failover leaves haproxy with no primary, a new connection waits rather than
      // fails: a bounded wait, then a 503 with Retry-After (plugins/errors.ts), never a hang.
      connectionTimeoutMillis: 5000,
      // A server whose machine vanishes (no crash, no goodbye) is noticed by TCP keepalives, so
      // its connections end and the start lock one of them may hold is freed.
      keepAlive: true,
      options: `-c pg_trgm.word_similarity_threshold=${SEARCH_WORD_SIMILARITY}`,
    });
    // An idle connection that the server closes (restart, failover) must not crash the process;
    // the pool replaces it on the next query.
    pool.on('error', (err) => console.warn('PostgreSQL connection lost:', err.message));
    // A connection checked out (a transaction between two statements) has no pool listener: one
    // the server ends then (a failover) would throw in the process. Heard here; the statement
    // under way fails (a 503), and the pool drops the broken connection when it is released.
    pool.on('connect', (client) => client.on('error', () => {}));
    // The replica's connections wait, keep alive and search as the primary's do.
    const readPool = options.readUrl
      ? new pg.Pool({ ...pool.options, connectionString: options.readUrl })
      : undefined;
    readPool?.on('error', (err) =>
      console.warn('PostgreSQL replica connection lost:', err.message),
    );
    readPool?.on('connect', (client) => client.on('error', () => {}));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    const exclusively = <T>(work: () => Promise<T>) => holdingStartLock(pool, work);
    try {
      // Two servers migrating at once would both create the first table and one would fail.
      await exclusively(() => migratePg(db as never, { migrationsFolder: MIGRATIONS_DIR }));
    } catch (err) {
      await pool.end();
      await readPool?.end();
      throw err;
    }
    const pingPool = new pg.Pool({
      connectionString: options.url,
      max: 1,
      keepAlive: true,
      connectionTimeoutMillis: 3000,
      query_timeout: 3000,
    });
    pingPool.on('error', () => {});
    return {
      db,
      kind: 'postgres',
      readPool,
      close: async () => {
        await Promise.all([pool.end(), pingPool.end(), readPool?.end()]);
      },
      ping: (timeoutMs) => pingPrimary(pingPool, timeoutMs),
      listen: (channel, onPayload, onHeardAgain) =>
        listenPg(options.url, channel, onPayload, onHeardAgain),
      exclusively,
    };
  }
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  // A second process on the same files would corrupt them (see data-dir-lock.ts).
  const unlock = options.dataDir ? await lockDataDir(options.dataDir) : async () => {};
  let opened: PGlite | undefined;
  try {
    const client = await PGlite.create(options.dataDir, {
      loadDataDir: options.loadDataDir,
      extensions: PGLITE_EXTENSIONS,
    });
    opened = client;
    await client.exec(`set pg_trgm.word_similarity_threshold = ${SEARCH_WORD_SIMILARITY}`);
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    await migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR });
    // PGlite gives its files modes of its own (0666, 0644) whatever the umask: the owner's only.
    const privately = () => (options.dataDir ? tightenTree(options.dataDir) : Promise.resolve(0));
    await privately();
    return {
      db,
      kind: 'pglite',
      ping: async () => {
        await client.query('select 1');
      },
      close: async () => {
        await client.close();
        await privately();
        await unlock();
      },
      dump: async () => {
        const dump = await client.dumpDataDir('gzip');
        return dump;
      },
      listen: async (channel, onPayload) => {
        const stop = await client.listen(channel, onPayload);
        return async () => {
          if (!client.closed) await stop();
        };
      },
      // The data directory's lock already keeps every other process out.
      exclusively: (work) => work(),
    };
  } catch (err) {
    await opened?.close();
    await unlock();
    throw err;
  }
}

/** Throws unless `pool`'s server answers within `timeoutMs` as a primary. */
async function pingPrimary(pool: pg.Pool, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const { rows } = await Promise.race([
      pool.query<{ standby: boolean }>('select pg_is_in_recovery() as standby'),
      timeout,
    ]);
    if (rows[0]?.standby) throw new Error('the database is a standby: no primary reached');
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A connection of its own that LISTENs (a pooled one would be handed to others), opened again a
 * second after it is lost (a restart or failover of PostgreSQL): what is sent meanwhile is not
 * heard, so listeners also look again on their own now and then.
 */
async function listenPg(
  url: string,
  channel: string,
  onPayload: (payload: string) => void,
  onHeardAgain?: () => void,
): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    // Kept alive: a connection a failover drops without a word is found dead and opened again,
    // not listened to for ever.
    const next = new pg.Client({
      connectionString: url,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    const again = () => {
      if (stopped || retry) return;
      retry = setTimeout(() => {
        retry = undefined;
        connect().catch(again);
      }, 1000);
      retry.unref();
    };
    next.on('error', (err) => {
      console.warn('PostgreSQL listener lost:', err.message);
      again();
    });
    next.on('end', again);
    next.on('notification', (message) => {
      if (message.channel === channel) onPayload(message.payload ?? '');
    });
    await next.connect();
    await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    const lost = client !== undefined;
    client = next;
    if (lost) onHeardAgain?.();
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}

/** Ids as one PostgreSQL array literal (`{a,b}`), for `= any(${...}::uuid[])`: one parameter. */
export const uuidArray = (ids: readonly string[]) => `{${ids.join(',')}}`;
