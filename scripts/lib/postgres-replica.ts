/**
 * A throwaway PostgreSQL primary with a streaming standby (made by `pg_basebackup -R`) on free
 * loopback ports, for the read-replica test and the bench (decision 048). No failover manager:
 * this is a replica to read from, not a cluster to fail over (scripts/lib/postgres-ha.ts is).
 * PostgreSQL refuses to run as root, so root runs it as `postgres`.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { postgresBin as binWith } from './postgres-bin';
import { freePort } from './server-process';

export type PostgresWithReplica = {
  primaryUrl: string;
  replicaUrl: string;
  /** Stops the standby alone (a replica lost while the primary goes on). */
  stopReplica: () => void;
  stop: () => void;
};

export type ReplicaOptions = {
  /**
   * The standby's `recovery_min_apply_delay` in ms: it replays each commit this long after the
   * primary made it, a lag on purpose that a router ignoring WAL positions cannot hide.
   */
  applyDelayMs?: number;
  /** fsync and the WAL as a real server keeps them, instead of throwaway settings. */
  durable?: boolean;
};

/** What is missing to start a primary with a standby here, or null. */
export function replicaMissing(): string | null {
  return binWith('pg_basebackup')
    ? null
    : 'no PostgreSQL server binaries (initdb, pg_basebackup) under /usr/lib/postgresql (Debian: apt-get install -y postgresql)';
}

const idOf = (flag: '-u' | '-g', name: string) =>
  Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());

export async function startPostgresWithReplica(
  options: ReplicaOptions = {},
): Promise<PostgresWithReplica> {
  const bin = binWith('pg_basebackup');
  if (!bin) throw new Error(replicaMissing() ?? 'no PostgreSQL');
  const isRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) =>
    isRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args], {
          stdio: 'pipe',
        })
      : execFileSync(path.join(bin, cmd), args, { stdio: 'pipe' });
  const dir = mkdtempSync('/tmp/phone-market-replica.');
  if (isRoot) chownSync(dir, idOf('-u', 'postgres'), idOf('-g', 'postgres'));
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const speed = options.durable
    ? ''
    : ' -c fsync=off -c full_page_writes=off -c shared_buffers=256MB';
  const common = `-k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200${speed}`;
  const started: string[] = [];
  const stopNode = (name: string) => {
    try {
      run('pg_ctl', ['-D', `${dir}/${name}`, '-m', 'fast', 'stop']);
    } catch {
      // Already stopped.
    }
  };
  const stop = () => {
    for (const name of started.reverse()) stopNode(name);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // initdb's trust lines cover replication connections from loopback too.
    run('initdb', ['-D', `${dir}/primary`, '-U', 'postgres', '-A', 'trust', '--no-sync']);
    run('pg_ctl', [
      '-D',
      `${dir}/primary`,
      '-l',
      `${dir}/primary.log`,
      '-w',
      '-o',
      // The WAL kept for the standby while it is away (stopped by a test, slow to start).
      `-p ${primaryPort} ${common} -c wal_level=replica -c max_wal_senders=4 -c wal_keep_size=512MB`,
      'start',
    ]);
    started.push('primary');
    run('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      `${dir}/replica`,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
    ]);
    const delay = options.applyDelayMs
      ? ` -c recovery_min_apply_delay=${options.applyDelayMs}ms`
      : '';
    run('pg_ctl', [
      '-D',
      `${dir}/replica`,
      '-l',
      `${dir}/replica.log`,
      '-w',
      '-o',
      // hot_standby_feedback: the primary's vacuum waits for the standby's reads rather than
      // cancel them (a read cancelled there would go to the primary again).
      `-p ${replicaPort} ${common} -c hot_standby=on -c hot_standby_feedback=on${delay}`,
      'start',
    ]);
    started.push('replica');
  } catch (err) {
    stop();
    const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(`PostgreSQL with a replica did not start: ${stderr || (err as Error).message}`);
  }
  return {
    primaryUrl: `postgres://postgres@127.0.0.1:${primaryPort}/postgres`,
    replicaUrl: `postgres://postgres@127.0.0.1:${replicaPort}/postgres`,
    stopReplica: () => stopNode('replica'),
    stop,
  };
}
