/**
 * A replicated PostgreSQL on this machine, as production runs one on three (issue 32, decision
 * 045): one etcd, and PostgreSQL servers each managed by Patroni (Debian's packages), the first
 * primary and the others standbys, with synchronous replication (`synchronous_mode`): a commit
 * is answered only once the synchronous standby has it, and Patroni promotes only that standby,
 * so a primary's death loses nothing acknowledged. Patroni, not we, decides who is primary;
 * haproxy finds it through Patroni's REST checks (`GET /primary`, `GET /replica`).
 *
 * Everything lives in one temporary directory and runs as `postgres` when started as root
 * (PostgreSQL refuses root). `stop` ends every process and removes the directory; so does the
 * exit of the process that started it.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { HAPROXY, type ServerStat, serverStats } from './balancer';
import {
  archiveCommand,
  DEFAULT_STANZA,
  pgbackrestConfigText,
  pgbackrestMissing,
  type Stanza,
  stanzaCreate,
} from './pgbackrest';
import { postgresBin } from './postgres-bin';

export type HaNode = {
  /** Patroni's member name (`pg1`, `pg2`, …). */
  name: string;
  /** PostgreSQL's port on 127.0.0.1. */
  port: number;
  /** Patroni's REST API port on 127.0.0.1 (`/primary`, `/replica`, `/cluster`). */
  restPort: number;
  /** This node's PostgreSQL directly (tests; the application goes through haproxy). */
  url: string;
  dataDir: string;
};

export type PostgresHa = {
  scope: string;
  /** etcd's client address, where Patroni keeps the leader key. */
  etcdUrl: string;
  nodes: HaNode[];
  /** The node whose Patroni answers 200 to `GET /primary`, as haproxy asks it. */
  primary: () => Promise<HaNode | undefined>;
  /** Waits until a running primary other than `not` exists, with a running synchronous standby when `withStandby`. */
  waitForPrimary: (options?: {
    not?: HaNode;
    withStandby?: boolean;
    timeoutMs?: number;
  }) => Promise<HaNode>;
  /** Patroni's view of the members, from any node that answers. */
  members: () => Promise<Member[]>;
  /** SIGKILL to the node's postmaster, as a crash would; its Patroni stays up. */
  kill: (node: HaNode) => void;
  /** Patroni, PostgreSQL and etcd ended, their files removed. */
  stop: () => Promise<void>;
  /** The tail of every process's output, for a failure's message. */
  output: () => string;
  /** With `archive`: the pgBackRest stanza every node's primary archives to (decision 047). */
  pgbackrest?: Stanza & { config: string; repoPath: string };
};

export type Member = {
  name: string;
  role: 'leader' | 'sync_standby' | 'replica' | string;
  state: string;
  port: number;
  lag?: number | string;
};

export type HaOptions = {
  /** PostgreSQL servers (default 2: a primary and its synchronous standby). */
  nodes?: number;
  /** Node i's PostgreSQL listens on basePort + i, its Patroni REST API on basePort + 100 + i. */
  basePort?: number;
  /** etcd's client port; its peer port is the next one. */
  etcdPort?: number;
  startTimeoutMs?: number;
  /**
   * Archive the WAL with pgBackRest into a repository in the cluster's directory (decision 047):
   * every node gets `archive_mode` and its `archive_command`, so whichever is primary archives.
   * Ignored when pgbackrest is not installed.
   */
  archive?: boolean;
};

const installed = (bin: string) => {
  try {
    execFileSync(bin, ['--version'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
};

/** Why the replicated PostgreSQL cannot run here, or null when it can. */
export function postgresHaMissing(): string | null {
  const missing = [
    installed('patroni') ? null : 'patroni',
    installed('etcd') ? null : 'etcd-server',
    HAPROXY ? null : 'haproxy',
    postgresBin() ? null : 'postgresql',
  ].filter(Boolean);
  return missing.length
    ? `not installed: ${missing.join(', ')} (Debian: apt-get install -y ${missing.join(' ')})`
    : null;
}

const idOf = (flag: '-u' | '-g', name: string) =>
  Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());

const portTaken = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(true));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(false)));
  });

/** Answers a Patroni REST path's status and JSON body, or null when nobody answers. */
async function rest(
  port: number,
  route: string,
): Promise<{ status: number; body: unknown } | null> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}${route}`, {
      signal: AbortSignal.timeout(1000),
    });
    return { status: response.status, body: await response.json().catch(() => null) };
  } catch {
    return null;
  }
}

/** Patroni's configuration for one node (YAML is a superset of JSON). */
function patroniConfig(o: {
  scope: string;
  node: HaNode;
  etcdPort: number;
  bin: string;
  dir: string;
  archive?: Stanza;
}) {
  return {
    scope: o.scope,
    name: o.node.name,
    log: { level: 'WARNING' },
    restapi: {
      listen: `127.0.0.1:${o.node.restPort}`,
      connect_address: `127.0.0.1:${o.node.restPort}`,
    },
    etcd3: { hosts: `127.0.0.1:${o.etcdPort}` },
    bootstrap: {
      dcs: {
        // Loopback timings, so a failover takes seconds in CI: the leader key lives 10 s,
        // Patroni looks every second. Production keeps Patroni's defaults (30 s, 10 s).
        ttl: 10,
        loop_wait: 1,
        retry_timeout: 3,
        // A crashed primary is failed over at once rather than restarted in place: the
        // synchronous standby has every acknowledged commit.
        primary_start_timeout: 0,
        synchronous_mode: true,
        maximum_lag_on_failover: 1_048_576,
        postgresql: {
          // The old primary rejoins as a standby, rewound to the new timeline.
          use_pg_rewind: true,
          parameters: {
            wal_log_hints: 'on',
            max_wal_senders: 10,
            max_replication_slots: 10,
            max_connections: 200,
          },
        },
      },
      initdb: [{ encoding: 'UTF8' }, { auth: 'trust' }, 'data-checksums'],
      // Loopback only, as the single CI PostgreSQL: trust. Production uses scram-sha-256.
      pg_hba: [
        'local all all trust',
        'host replication replicator 127.0.0.1/32 trust',
        'host all all 127.0.0.1/32 trust',
      ],
    },
    postgresql: {
      listen: `127.0.0.1:${o.node.port}`,
      connect_address: `127.0.0.1:${o.node.port}`,
      data_dir: o.node.dataDir,
      bin_dir: o.bin,
      pgpass: path.join(o.dir, `${o.node.name}.pgpass`),
      authentication: {
        replication: { username: 'replicator', password: 'replicator' },
        superuser: { username: 'postgres', password: 'postgres' },
        rewind: { username: 'postgres', password: 'postgres' },
      },
      parameters: {
        unix_socket_directories: o.dir,
        // Per node: pgBackRest reads the segment PostgreSQL names (%p, relative) in this node's
        // data directory. A standby does not archive (archive_mode on, not always): the node
        // that is primary does, and the one promoted takes over on its new timeline.
        ...(o.archive
          ? { archive_mode: 'on', archive_command: archiveCommand(o.archive, o.node.dataDir) }
          : {}),
      },
    },
  };
}

/** The postmaster's pid, from its data directory, when one is running. */
function postmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (!pid) return undefined;
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

export async function startPostgresHa(options: HaOptions = {}): Promise<PostgresHa> {
  const missing = postgresHaMissing();
  if (missing) throw new Error(missing);
  const bin = postgresBin() as string;
  const count = options.nodes ?? 2;
  const basePort = options.basePort ?? 56430;
  const etcdPort = options.etcdPort ?? 2381;
  const scope = 'market';
  const isRoot = process.getuid?.() === 0;
  const as = isRoot ? { uid: idOf('-u', 'postgres'), gid: idOf('-g', 'postgres') } : {};

  const nodes: HaNode[] = [];
  for (let i = 1; i <= count; i++) {
    const port = basePort + i;
    nodes.push({
      name: `pg${i}`,
      port,
      restPort: basePort + 100 + i,
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      dataDir: '',
    });
  }
  const ports = [etcdPort, etcdPort + 1, ...nodes.flatMap((n) => [n.port, n.restPort])];
  for (const port of ports) {
    if (await portTaken(port)) throw new Error(`port ${port} is taken on 127.0.0.1`);
  }

  const dir = mkdtempSync('/tmp/phone-market-ha.');
  if (isRoot) chownSync(dir, as.uid as number, as.gid as number);
  for (const node of nodes) node.dataDir = path.join(dir, node.name);
  const archive =
    options.archive && !pgbackrestMissing()
      ? {
          stanza: DEFAULT_STANZA,
          config: path.join(dir, 'pgbackrest.conf'),
          repoPath: path.join(dir, 'pgbackrest-repo'),
        }
      : undefined;
  if (archive) {
    writeFileSync(
      archive.config,
      pgbackrestConfigText({
        stanza: archive.stanza,
        repoPath: archive.repoPath,
        pg: nodes.map((n) => ({ path: n.dataDir, port: n.port })),
        socketPath: dir,
        lockPath: path.join(dir, 'pgbackrest-lock'),
        logFiles: false,
      }),
    );
    if (isRoot) chownSync(archive.config, as.uid as number, as.gid as number);
  }

  const children: { name: string; child: ChildProcess; output: string }[] = [];
  const run = (name: string, command: string, args: string[]) => {
    const child = spawn(command, args, {
      ...as,
      cwd: dir,
      env: { ...process.env, HOME: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const entry = { name, child, output: '' };
    const keep = (chunk: Buffer) => {
      entry.output = (entry.output + chunk.toString()).slice(-8000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    children.push(entry);
    return child;
  };
  const output = () =>
    children.map((c) => `--- ${c.name} (exit ${c.child.exitCode})\n${c.output}`).join('\n');

  // Never outlives the process that started it (a test runner that ends early, a crash).
  const orphaned = () => {
    for (const { child } of children) child.kill('SIGKILL');
    for (const node of nodes) {
      const pid = postmasterPid(node.dataDir);
      if (pid) process.kill(pid, 'SIGQUIT');
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', orphaned);

  const stopped = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;
  const end = async (child: ChildProcess, timeoutMs: number) => {
    if (stopped(child)) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const done = await Promise.race([exited.then(() => true), sleep(timeoutMs).then(() => false)]);
    if (!done) {
      child.kill('SIGKILL');
      await exited;
    }
  };
  const stop = async () => {
    process.off('exit', orphaned);
    // Patroni stops its PostgreSQL on SIGTERM; whatever is left is stopped at once (SIGQUIT).
    await Promise.all(
      children.filter((c) => c.name !== 'etcd').map(({ child }) => end(child, 15_000)),
    );
    for (const node of nodes) {
      const pid = postmasterPid(node.dataDir);
      if (!pid) continue;
      process.kill(pid, 'SIGQUIT');
      const deadline = Date.now() + 10_000;
      while (alive(pid) && Date.now() < deadline) await sleep(100);
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
    const etcd = children.find((c) => c.name === 'etcd');
    if (etcd) await end(etcd.child, 5000);
    rmSync(dir, { recursive: true, force: true });
  };

  const members = async (): Promise<Member[]> => {
    for (const node of nodes) {
      const answer = await rest(node.restPort, '/cluster');
      const list = (answer?.body as { members?: Member[] } | null)?.members;
      if (list) return list;
    }
    return [];
  };
  const primary = async () => {
    for (const node of nodes) {
      if ((await rest(node.restPort, '/primary'))?.status === 200) return node;
    }
    return undefined;
  };
  const waitForPrimary: PostgresHa['waitForPrimary'] = async ({
    not,
    withStandby = false,
    timeoutMs = 30_000,
  } = {}) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const found = await primary();
      if (found && found !== not) {
        const standby = (await members()).some(
          (m) => m.role === 'sync_standby' && m.state === 'running',
        );
        if (!withStandby || standby) return found;
      }
      await sleep(200);
    }
    throw new Error(
      `no primary${not ? ` other than ${not.name}` : ''}${withStandby ? ' with a synchronous standby' : ''} within ${timeoutMs} ms: ${JSON.stringify(await members())}`,
    );
  };

  try {
    const etcdUrl = `http://127.0.0.1:${etcdPort}`;
    const peerUrl = `http://127.0.0.1:${etcdPort + 1}`;
    run('etcd', 'etcd', [
      '--name',
      'etcd1',
      '--data-dir',
      path.join(dir, 'etcd'),
      '--listen-client-urls',
      etcdUrl,
      '--advertise-client-urls',
      etcdUrl,
      '--listen-peer-urls',
      peerUrl,
      '--initial-advertise-peer-urls',
      peerUrl,
      '--initial-cluster',
      `etcd1=${peerUrl}`,
    ]);
    const etcdDeadline = Date.now() + 15_000;
    while (!(await rest(etcdPort, '/health'))) {
      if (Date.now() > etcdDeadline) throw new Error('etcd did not start');
      await sleep(100);
    }
    for (const node of nodes) {
      const file = path.join(dir, `${node.name}.yml`);
      writeFileSync(
        file,
        JSON.stringify(patroniConfig({ scope, node, etcdPort, bin, dir, archive })),
      );
      if (isRoot) chownSync(file, as.uid as number, as.gid as number);
      // All at once, as machines boot: Patroni's initialize key lets one run initdb, the others
      // copy it with pg_basebackup.
      run(`patroni ${node.name}`, 'patroni', [file]);
    }
    await waitForPrimary({
      withStandby: count > 1,
      timeoutMs: options.startTimeoutMs ?? 90_000,
    });
    // The repository's stanza, once the primary runs; until then its archive_command fails and
    // PostgreSQL keeps the segments and tries again.
    if (archive) await stanzaCreate(archive);
    return {
      scope,
      etcdUrl,
      nodes,
      primary,
      waitForPrimary,
      members,
      kill: (node) => {
        const pid = postmasterPid(node.dataDir);
        if (!pid) throw new Error(`${node.name} has no running postmaster`);
        process.kill(pid, 'SIGKILL');
      },
      stop,
      output,
      pgbackrest: archive,
    };
  } catch (err) {
    const tail = output();
    await stop();
    throw new Error(`${(err as Error).message}\n${tail}`);
  }
}

/** How often haproxy asks each Patroni, and how many answers change its mind. */
export const PATRONI_CHECK = { intervalMs: 500, fall: 2, rise: 1 };

/**
 * haproxy in front of the replicated PostgreSQL (TCP): `primaryPort` reaches whichever node's
 * Patroni answers 200 to `GET /primary`, `replicaPort` the standbys answering `GET /replica`.
 * A node marked down has its connections cut (`shutdown-sessions`), so a client still talking
 * to a demoted primary learns at once and reconnects to the new one.
 */
export function haproxyPostgresConfig(
  {
    primaryPort,
    replicaPort,
    nodes,
  }: { primaryPort: number; replicaPort: number; nodes: HaNode[] },
  statsSocket: string,
): string {
  const { intervalMs, fall, rise } = PATRONI_CHECK;
  const servers = nodes
    .map((n) => `  server ${n.name} 127.0.0.1:${n.port} check port ${n.restPort}`)
    .join('\n');
  const listen = (name: string, port: number, check: string) => `listen ${name}
  bind 127.0.0.1:${port}
  option httpchk GET ${check}
  http-check expect status 200
  default-server inter ${intervalMs} fall ${fall} rise ${rise} on-marked-down shutdown-sessions
${servers}
`;
  return `global
  maxconn 4000
  stats socket ${statsSocket} mode 600 level admin

defaults
  mode tcp
  timeout connect 2s
  # Pooled connections sit idle between requests; keepalives find a vanished peer.
  timeout client 30m
  timeout server 30m
  option clitcpka
  option srvtcpka

${listen('postgres_primary', primaryPort, '/primary')}
${listen('postgres_replicas', replicaPort, '/replica')}`;
}

export type PostgresBalancer = {
  /** The current primary, whoever it is: what `DATABASE_URL` names. */
  primaryUrl: string;
  /** Any running standby: what `DATABASE_READ_URL` names. */
  replicaUrl: string;
  stop: () => Promise<void>;
};

/**
 * Whether haproxy has made up its mind on every node: each has had a check (haproxy 2.6 starts
 * a server as up before its first one) and none is between states ("UP 1/2"), and the primary
 * port has exactly one node. Until then the replica port may still reach the primary.
 */
function checksSettled(stats: ServerStat[]): boolean {
  const settled = stats.every((s) => ['UP', 'DOWN'].includes(s.status) && !s.check.includes('INI'));
  const primaries = stats.filter((s) => s.proxy === 'postgres_primary' && s.status === 'UP');
  return settled && primaries.length === 1;
}

/**
 * Starts haproxy for `ha` and resolves once its primary port reaches the primary and its
 * replica port only standbys.
 */
export async function startPostgresBalancer(
  ha: PostgresHa,
  { primaryPort = 56500, replicaPort = 56501 }: { primaryPort?: number; replicaPort?: number } = {},
): Promise<PostgresBalancer> {
  if (!HAPROXY) throw new Error('haproxy is not installed');
  const dir = mkdtempSync('/tmp/phone-market-ha-haproxy.');
  const file = path.join(dir, 'haproxy.cfg');
  const statsSocket = path.join(dir, 'stats.sock');
  writeFileSync(
    file,
    haproxyPostgresConfig({ primaryPort, replicaPort, nodes: ha.nodes }, statsSocket),
  );
  execFileSync(HAPROXY, ['-c', '-q', '-f', file], { stdio: 'pipe' });
  const child = spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  });
  const exited = once(child, 'exit');
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);
  const stop = async () => {
    process.off('exit', orphaned);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/postgres`;
  const { default: pg } = await import('pg');
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const stats = await serverStats(statsSocket).catch(() => []);
    if (!checksSettled(stats)) {
      await sleep(200);
      continue;
    }
    const client = new pg.Client({ connectionString: primaryUrl, connectionTimeoutMillis: 1000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('select 1');
      await client.end();
      return {
        primaryUrl,
        replicaUrl: `postgres://postgres@127.0.0.1:${replicaPort}/postgres`,
        stop,
      };
    } catch {
      await client.end().catch(() => undefined);
      await sleep(200);
    }
  }
  await stop();
  throw new Error(`haproxy did not reach a primary:\n${output}`);
}
