/**
 * What a read replica takes off the primary (issue 32, decision 048): the public catalog and
 * search under load, from one server on PostgreSQL without a replica and then with
 * DATABASE_READ_URL set to a streaming standby. The primary's and the standby's transactions are
 * counted by PostgreSQL itself (pg_stat_database's xact_commit + xact_rollback, each server's
 * own); every request reads the database (PUBLIC_CACHE_MS=0), as a catalog too large for the
 * second's reuse would. Demo data; anonymous load, which the router sends to the replica.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { sharedSecrets } from '../scripts/lib/cluster';
import {
  type PostgresWithReplica,
  replicaMissing,
  startPostgresWithReplica,
} from '../scripts/lib/postgres-replica';
import { withAppServer } from './lib/app-server';
import { type LoadResult, runLoad } from './lib/load';
import type { Figure } from './lib/report';

const SECTION = 'Read replica (PostgreSQL, PUBLIC_CACHE_MS=0)';
export const REPLICA_PATHS = ['/api/category/01', '/api/search?q=iphone'] as const;
const LOAD = { connections: 10, duration: 8 };

/** Transactions a server has finished in the bench's database (its own count, a standby's too). */
async function transactions(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // The statistics are flushed by each backend at most once a second: a fresh snapshot.
    await client.query('select pg_stat_clear_snapshot()');
    const { rows } = await client.query<{ n: string }>(
      'select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()',
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

type Measured = { load: LoadResult; primaryPerSecond: number; replicaPerSecond: number };

async function measure(
  postgres: PostgresWithReplica,
  withReplica: boolean,
  secrets: Record<string, string>,
): Promise<Record<string, Measured>> {
  const env: Record<string, string> = {
    ...secrets,
    PUBLIC_CACHE_MS: '0',
    SEARCH_RATE_LIMIT: '1000000000',
  };
  if (withReplica) env.DATABASE_READ_URL = postgres.replicaUrl;
  return withAppServer(
    { databaseUrl: postgres.primaryUrl, seedDemo: true, env },
    async (origin) => {
      const out: Record<string, Measured> = {};
      for (const page of REPLICA_PATHS) {
        const url = `${origin}${page}`;
        await runLoad({ url, connections: LOAD.connections, duration: 2 });
        // Each backend reports its counts within a second of its last transaction.
        await sleep(1500);
        const before = await Promise.all([
          transactions(postgres.primaryUrl),
          transactions(postgres.replicaUrl),
        ]);
        const load = await runLoad({ url, ...LOAD });
        await sleep(1500);
        const after = await Promise.all([
          transactions(postgres.primaryUrl),
          transactions(postgres.replicaUrl),
        ]);
        out[page] = {
          load,
          primaryPerSecond: ((after[0] - before[0]) / LOAD.duration) | 0,
          replicaPerSecond: ((after[1] - before[1]) / LOAD.duration) | 0,
        };
      }
      return out;
    },
  );
}

export async function benchReplica(): Promise<Figure[]> {
  const missing = replicaMissing();
  const postgres = missing ? undefined : await startPostgresWithReplica();
  if (!postgres) {
    return REPLICA_PATHS.map((page) => ({
      section: SECTION,
      name: `GET ${page}: primary's transactions taken off by the replica`,
      value: null,
      unit: '%',
      note: `skipped: ${missing}`,
    }));
  }
  try {
    // Both servers on one database: the same secrets (a server refuses others').
    const secrets = sharedSecrets();
    const alone = await measure(postgres, false, secrets);
    const replicated = await measure(postgres, true, secrets);
    return REPLICA_PATHS.flatMap((page) => {
      const a = alone[page] as Measured;
      const r = replicated[page] as Measured;
      const perRequest = (m: Measured) => m.primaryPerSecond / m.load.requestsPerSecond;
      const saved = 100 * (1 - perRequest(r) / perRequest(a));
      const runNote = (m: Measured) =>
        `${m.load.requestsPerSecond} req/s, p50 ${m.load.p50} ms, p99 ${m.load.p99} ms; primary ${m.primaryPerSecond} transactions/s, replica ${m.replicaPerSecond}/s`;
      return [
        {
          section: SECTION,
          name: `GET ${page}, primary alone`,
          value: a.load.requestsPerSecond,
          unit: 'req/s',
          note: runNote(a),
        },
        {
          section: SECTION,
          name: `GET ${page}, with a replica`,
          value: r.load.requestsPerSecond,
          unit: 'req/s',
          note: runNote(r),
        },
        {
          section: SECTION,
          name: `GET ${page}: primary's transactions per request taken off by the replica`,
          value: Math.round(saved),
          unit: '%',
          note: `${LOAD.connections} connections, ${LOAD.duration} s; what stays on the primary: the server's background work, and for the search the counts' catch-up notice (decision 034)`,
        },
      ];
    });
  } finally {
    postgres.stop();
  }
}
