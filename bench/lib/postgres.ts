/**
 * A throwaway PostgreSQL for the bench, the way `.ci/run` starts one: a fresh data directory
 * under /tmp on loopback. PostgreSQL refuses to run as root, so root runs it as `postgres`.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { postgresBin } from '../../scripts/lib/postgres-bin';

export type Postgres = { url: string; stop: () => void };

const PORT = Number(process.env.BENCH_PG_PORT ?? 55440);

/**
 * Starts PostgreSQL, or answers why it cannot (the bench then skips the PostgreSQL parts).
 * `durable`: fsync and the WAL as a real server keeps them (`npm run cluster`), instead of the
 * bench's throwaway settings. `keptIn`: a directory whose cluster is made once and kept after
 * the stop (a catalog too big to build on every run); otherwise a fresh one, removed after.
 */
export function startPostgres({
  port = PORT,
  durable = false,
  keptIn,
}: {
  port?: number;
  durable?: boolean;
  keptIn?: string;
} = {}): Postgres | { skipped: string } {
  const bin = postgresBin();
  if (!bin) return { skipped: 'no PostgreSQL binaries under /usr/lib/postgresql' };
  const isRoot = process.getuid?.() === 0;
  if (keptIn) mkdirSync(keptIn, { recursive: true });
  const dir = keptIn ?? mkdtempSync('/tmp/phone-market-bench-pg.');
  const made = existsSync(`${dir}/db/PG_VERSION`);
  const remove = () => {
    if (!keptIn) rmSync(dir, { recursive: true, force: true });
  };
  const run = (cmd: string, args: string[]) =>
    isRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args], {
          stdio: 'pipe',
        })
      : execFileSync(path.join(bin, cmd), args, { stdio: 'pipe' });
  try {
    if (isRoot) chownSync(dir, uidOf('postgres'), gidOf('postgres'));
    if (!made) run('initdb', ['-D', `${dir}/db`, '-U', 'postgres', '-A', 'trust', '--no-sync']);
    // Durability off: a throwaway database measuring reads, seeded with a million rows; 1 GB of
    // buffers, as a server for a catalog this big would have (its phones fit in memory).
    const options = durable
      ? `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`
      : `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_wal_size=4GB -c shared_buffers=1GB`;
    run('pg_ctl', ['-D', `${dir}/db`, '-l', `${dir}/log`, '-w', '-o', options, 'start']);
  } catch (err) {
    remove();
    return { skipped: `PostgreSQL did not start: ${(err as Error).message.split('\n')[0]}` };
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      try {
        run('pg_ctl', ['-D', `${dir}/db`, '-m', 'fast', 'stop']);
      } catch {
        // Already stopped: nothing to do but remove its files.
      }
      remove();
    },
  };
}

const idOf = (flag: '-u' | '-g', name: string) =>
  Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());
const uidOf = (name: string) => idOf('-u', name);
const gidOf = (name: string) => idOf('-g', name);

/** A fresh database on the bench's server, so each part starts from an empty catalog. */
export async function createDatabase(serverUrl: string, name: string): Promise<string> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`drop database if exists ${name}`);
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A database on the bench's server made once and kept (its catalog is topped up, not rebuilt). */
export async function keptDatabase(serverUrl: string, name: string): Promise<string> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
