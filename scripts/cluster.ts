/**
 * `npm run cluster`: the marketplace as it runs on several machines, on this one: PostgreSQL,
 * an S3-compatible object store for the photos, N servers (default 3) started at the same
 * moment on the same demo data, and haproxy in front of them with health checks. Prints the
 * address; Ctrl-C stops everything and removes its data. docs/deploy.md says how the same runs
 * on several machines.
 *
 *   npm run cluster                      3 servers on http://localhost:8080
 *   npm run cluster -- --servers 2 --port 9000
 *   npm run cluster -- --redis           limits counted in Redis instead of PostgreSQL
 *   npm run cluster -- --ha              PostgreSQL replicated under Patroni (decision 045):
 *                                        etcd, a primary and a synchronous standby, the servers
 *                                        reaching the primary through haproxy and reading the
 *                                        catalog from a standby (DATABASE_READ_URL, decision 048);
 *                                        with pgbackrest installed, the primary archives its WAL
 *                                        (decision 047) and it prints how to back up and restore
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startPostgres } from '../bench/lib/postgres';
import { startRedisServer } from '../tests/helpers/redis-server';
import { startS3Server } from '../tests/helpers/s3-server';
import { ensureClientBuild } from './client-build';
import { startCluster } from './lib/cluster';
import { type PostgresHa, startPostgresBalancer, startPostgresHa } from './lib/postgres-ha';
import { freePort } from './lib/server-process';

const { values: args } = parseArgs({
  options: {
    servers: { type: 'string', default: '3' },
    port: { type: 'string', default: '8080' },
    redis: { type: 'boolean', default: false },
    ha: { type: 'boolean', default: false },
  },
});
const servers = Number(args.servers);
const port = Number(args.port);
if (!Number.isInteger(servers) || servers < 1 || servers > 16) {
  console.error('--servers must be a whole number from 1 to 16');
  process.exit(2);
}
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error('--port must be a port number');
  process.exit(2);
}

await ensureClientBuild();
const stops: (() => Promise<void> | void)[] = [];
const stopAll = async () => {
  for (const stop of stops.reverse()) await stop();
};

/** The one PostgreSQL, or with `--ha` Patroni's pair behind haproxy; what to print about it. */
async function startDatabase(): Promise<{
  url: string;
  readUrl?: string;
  lines: string[];
  tries: string[];
}> {
  if (!args.ha) {
    const postgres = startPostgres({ port: await freePort(), durable: true });
    if ('skipped' in postgres) throw new Error(`PostgreSQL: ${postgres.skipped}`);
    stops.push(postgres.stop);
    return { url: postgres.url, lines: [`  database: ${postgres.url}`], tries: [] };
  }
  const ha = await startPostgresHa({ archive: true });
  stops.push(ha.stop);
  const balancer = await startPostgresBalancer(ha);
  stops.push(balancer.stop);
  const primary = await ha.primary();
  return {
    url: balancer.primaryUrl,
    readUrl: balancer.replicaUrl,
    lines: [
      `  database: ${balancer.primaryUrl} (haproxy → the primary); reads: ${balancer.replicaUrl} (haproxy → a standby)`,
      `  etcd ${ha.etcdUrl}; Patroni's view: curl http://127.0.0.1:${ha.nodes[0]?.restPort}/cluster`,
      ...ha.nodes.map(
        (n) =>
          `  ${n.name}${n === primary ? ' (primary at start)' : ''}: ${n.url}, Patroni REST :${n.restPort}`,
      ),
    ],
    tries: [
      `  try: kill -9 $(head -1 ${primary?.dataDir}/postmaster.pid) kills the primary's PostgreSQL; Patroni promotes the standby in seconds, haproxy follows`,
      ...backupTries(balancer.primaryUrl, ha.pgbackrest),
    ],
  };
}

/** How to back up and restore the pair, when its WAL is archived (docs/backups.md). */
function backupTries(url: string, archive: PostgresHa['pgbackrest']): string[] {
  if (!archive) {
    return ['  backups: install pgbackrest to have the primary archive its WAL (decision 047)'];
  }
  const env = `DATABASE_URL=${url} PGBACKREST_STANZA=${archive.stanza} PGBACKREST_CONFIG=${archive.config}`;
  return [
    `  WAL archived by whichever node is primary, with pgBackRest into ${archive.repoPath}`,
    `  try: ${env} npm run backup -- --type full`,
    `  then: ${env} npm run restore -- --to 'YYYY-MM-DD HH:MM:SS+00' --into /tmp/market-restored (a moment since the backup, before the last write; without --to, the archive's end)`,
  ];
}

try {
  console.info('Starting PostgreSQL, the object store and the servers…');
  const database = await startDatabase();
  const store = await startS3Server({ bucket: 'photos' });
  stops.push(store.close);
  const redis = args.redis ? await startRedisServer() : null;
  if (redis) stops.push(redis.close);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'phone-market-cluster-'));
  stops.push(() => rm(dataDir, { recursive: true, force: true }));

  const cluster = await startCluster({
    servers,
    port,
    publicHost: 'localhost',
    databaseUrl: database.url,
    dataDir,
    env: {
      ...store.env,
      ...(redis ? { REDIS_URL: redis.url } : {}),
      ...(database.readUrl ? { DATABASE_READ_URL: database.readUrl } : {}),
      SEED_DEMO: '1',
      DRAIN_MS: '3000',
    },
    startTimeoutMs: 300_000,
  });
  stops.push(cluster.stop);
  const password = (await readFile(path.join(dataDir, 'secrets', 'demo-password'), 'utf8')).trim();
  console.info(
    [
      `Used-phone marketplace (cluster) is running at http://localhost:${port}`,
      `  haproxy → ${cluster.servers.map((s, i) => `s${i + 1} ${s.url} (pid ${s.child.pid})`).join(', ')}`,
      ...database.lines,
      `  photos: ${store.endpoint} bucket ${store.bucket}`,
      `  limits: ${redis ? `Redis ${redis.url}` : 'PostgreSQL'}`,
      `  demo accounts: the usual ones, password ${password}`,
      '  try: kill -TERM <pid> drains one server (its health turns 503, haproxy moves on)',
      ...database.tries,
      'Ctrl-C stops everything.',
    ].join('\n'),
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  console.info('\nStopping…');
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
} finally {
  await stopAll();
}
