/**
 * Where a read runs when there is a read replica (decision 048): on the replica when it has
 * replayed the writes the reader must see, otherwise on the primary. A position is a WAL
 * position (an LSN): the primary's after a person's write, the replica's replay position when
 * it reads. Without a replica every read is the primary's, as before.
 */
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { type Db, rowsOf } from './client';
import * as schema from './schema';
import { isDatabaseUnavailable } from './unavailable';

export type ReadPoolName = 'primary' | 'replica';

/** What a read runs on, and a WAL position its data is known to include. */
export type Reader = { db: Db; pool: ReadPoolName; seen: bigint };

/** PostgreSQL's text of an LSN: two hexadecimal halves of a 64-bit number, `16/B374D848`. */
const LSN_TEXT = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i;

/** An LSN's text as a number, or null for anything else. */
export function parseLsn(text: string): bigint | null {
  const match = LSN_TEXT.exec(text);
  if (!match) return null;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

export function formatLsn(position: bigint): string {
  const hex = (n: bigint) => n.toString(16).toUpperCase();
  return `${hex(position >> 32n)}/${hex(position & 0xffff_ffffn)}`;
}

/** The highest LSN there is: a read that must see it goes to the primary. */
export const LAST_LSN = 0xffff_ffff_ffff_ffffn;

/**
 * How long reads skip a replica that could not be reached: a blackholed replica would otherwise
 * hold every read for the pool's connection timeout before the primary answered.
 */
const REPLICA_REST_MS = 5000;

/**
 * How far a replica connection has replayed. On a primary (the read URL names one, or its
 * replica was promoted) the replay position is null and its own WAL is what it has.
 */
const REPLAYED = sql`select coalesce(pg_last_wal_replay_lsn(), pg_current_wal_insert_lsn())::text as lsn`;

/** Where the primary's WAL ends: past every transaction committed before it is asked. */
const WRITTEN = sql`select pg_current_wal_insert_lsn()::text as lsn`;

type Log = { warn: (obj: object, message: string) => void };

type ReplicaConnection = { db: Db; replayed: bigint };

export class ReadRouter {
  /** Reads answered, by where they ran (the metrics' phone_market_database_reads_total). */
  readonly reads: Record<ReadPoolName, number> = { primary: 0, replica: 0 };
  readonly #primary: Db;
  readonly #replica: pg.Pool | undefined;
  readonly #log: Log;
  /**
   * Each replica connection's Drizzle handle and the replay position last read on it. Kept per
   * connection, not per pool: a reader endpoint (haproxy's replica port, a provider's) may put
   * each connection on a different standby, each with a replay position of its own. A position
   * read earlier is a lower bound of the one now (replay only moves on), so it can only send a
   * read to the primary needlessly, never let a replica answer that is behind.
   */
  readonly #connections = new WeakMap<pg.PoolClient, ReplicaConnection>();
  #restUntil = 0;

  constructor(primary: Db, replica: pg.Pool | undefined, log: Log) {
    this.#primary = primary;
    this.#replica = replica;
    this.#log = log;
  }

  get hasReplica(): boolean {
    return this.#replica !== undefined;
  }

  /** The primary's WAL position now: what a read after a write just committed must see. */
  async writtenPosition(): Promise<bigint> {
    const [row] = await rowsOf<{ lsn: string }>(this.#primary, WRITTEN);
    const position = row && parseLsn(row.lsn);
    if (position == null) throw new Error(`the primary answered no WAL position: ${row?.lsn}`);
    return position;
  }

  /**
   * Runs `work` on a replica connection that has replayed `need` (0n: anyone's reads, which
   * may lag), else on the primary. A replica that fails (unreachable, cut off, a query cancelled
   * by replay) leaves the read to the primary: a replica never takes the site down. What `work`
   * refuses itself (an error with a status, such as a 404) is its answer, not a failure.
   */
  async read<T>(need: bigint, work: (reader: Reader) => Promise<T>): Promise<T> {
    const replica = await this.#replicaFor(need);
    if (replica) {
      let failure: Error | undefined;
      try {
        const answer = await work({
          db: replica.connection.db,
          pool: 'replica',
          seen: replica.connection.replayed > need ? replica.connection.replayed : need,
        });
        this.reads.replica++;
        return answer;
      } catch (err) {
        if (hasStatus(err)) throw err;
        failure = err as Error;
        this.#failed(err, 'a read on the replica failed; read on the primary');
      } finally {
        // A connection that failed is closed, not handed to the next read.
        replica.release(failure);
      }
    }
    const answer = await work({ db: this.#primary, pool: 'primary', seen: need });
    this.reads.primary++;
    return answer;
  }

  /** A replica connection that has replayed `need`, or null: then the primary reads. */
  async #replicaFor(
    need: bigint,
  ): Promise<{ connection: ReplicaConnection; release: (err?: Error) => void } | null> {
    if (!this.#replica || Date.now() < this.#restUntil) return null;
    let client: pg.PoolClient;
    try {
      client = await this.#replica.connect();
    } catch (err) {
      this.#failed(err, 'the replica cannot be reached; reads go to the primary');
      return null;
    }
    let connection = this.#connections.get(client);
    if (!connection) {
      connection = { db: drizzle(client, { schema }) as unknown as Db, replayed: 0n };
      this.#connections.set(client, connection);
    }
    if (connection.replayed < need) {
      try {
        const [row] = await rowsOf<{ lsn: string | null }>(connection.db, REPLAYED);
        connection.replayed = parseLsn(row?.lsn ?? '') ?? 0n;
      } catch (err) {
        client.release(err as Error);
        this.#failed(err, 'the replica did not say how far it has replayed; read on the primary');
        return null;
      }
    }
    if (connection.replayed < need) {
      client.release();
      return null;
    }
    return { connection, release: (err) => client.release(err) };
  }

  #failed(err: unknown, message: string): void {
    if (isDatabaseUnavailable(err)) this.#restUntil = Date.now() + REPLICA_REST_MS;
    this.#log.warn({ err }, message);
  }
}

const hasStatus = (err: unknown) =>
  typeof err === 'object' &&
  err !== null &&
  typeof (err as { statusCode?: unknown }).statusCode === 'number';
