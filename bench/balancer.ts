/**
 * The public pages through haproxy with one server and with two on one PostgreSQL (issue 21):
 * the figure is the point, not the gain (on a 2-core machine two servers share the same two
 * cores with PostgreSQL, haproxy and the load generator). Demo data; the public answer cache
 * as configured by default (each server keeps its own second of answers).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { startCluster } from '../scripts/lib/cluster';
import { startS3Server } from '../tests/helpers/s3-server';
import { type LoadResult, runLoad } from './lib/load';
import { createDatabase } from './lib/postgres';
import type { Figure } from './lib/report';

const SECTION = 'Behind a load balancer (haproxy, PostgreSQL)';
export const BALANCED_PATHS = ['/', '/category/01', '/api/category/01'] as const;
const LOAD = { connections: 10, duration: 8 };

async function measure(serverUrl: string, servers: number): Promise<Record<string, LoadResult>> {
  const databaseUrl = await createDatabase(serverUrl, `bench_balanced_${servers}`);
  const dataDir = mkdtempSync('/tmp/phone-market-bench-balanced.');
  const store = await startS3Server({ bucket: 'photos' });
  const cluster = await startCluster({
    servers,
    databaseUrl,
    dataDir,
    env: { ...store.env, SEED_DEMO: '1' },
    startTimeoutMs: 300_000,
  });
  try {
    const out: Record<string, LoadResult> = {};
    for (const page of BALANCED_PATHS) {
      await runLoad({ url: `${cluster.url}${page}`, connections: LOAD.connections, duration: 2 });
      out[page] = await runLoad({ url: `${cluster.url}${page}`, ...LOAD });
    }
    return out;
  } finally {
    await cluster.stop();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchBalancer(serverUrl: string | undefined): Promise<Figure[]> {
  if (!serverUrl) {
    return BALANCED_PATHS.map((page) => ({
      section: SECTION,
      name: `GET ${page} through haproxy`,
      value: null,
      unit: 'req/s',
      note: 'skipped: no PostgreSQL',
    }));
  }
  const one = await measure(serverUrl, 1);
  const two = await measure(serverUrl, 2);
  return BALANCED_PATHS.flatMap((page) =>
    [
      [1, one[page]],
      [2, two[page]],
    ].map(([servers, result]) => {
      const r = result as LoadResult;
      return {
        section: SECTION,
        name: `GET ${page} through haproxy, ${servers} server${servers === 1 ? '' : 's'} req/s`,
        value: r.requestsPerSecond,
        unit: 'req/s',
        note: `p50 ${r.p50} ms, p99 ${r.p99} ms, ${LOAD.connections} connections, ${LOAD.duration} s`,
      };
    }),
  );
}
