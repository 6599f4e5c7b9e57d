/**
 * haproxy (Debian's package) in front of the servers on this machine, as production puts a load
 * balancer in front of several: round robin, health checks on `/api/health` (a draining server
 * answers 503 there and leaves the rotation), the client's address in X-Forwarded-For, and a
 * request that could not reach a server (refused connection: it never started there) sent to
 * another one. Used by `npm run cluster`, the cluster test, the soak and the bench.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DATABASE_UNAVAILABLE } from '../../src/server/db/unavailable';
import { freePort } from './server-process';

export type Backend = { name: string; port: number };

export type Balancer = {
  url: string;
  /** The servers haproxy's health checks see as up, by name. */
  up: () => Promise<string[]>;
  stop: () => Promise<void>;
};

/** How often haproxy asks each server's health, and how many answers change its mind. */
export const HEALTH_CHECK = { intervalMs: 500, fall: 2, rise: 2 };

/** haproxy from PATH, or where Debian puts it (/usr/sbin is not on every user's PATH). */
export const HAPROXY = ['haproxy', '/usr/sbin/haproxy'].find((bin) => {
  try {
    execFileSync(bin, ['-v'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
});

/** Why haproxy cannot run here, or null when it can. */
export const balancerMissing = (): string | null =>
  HAPROXY ? null : 'haproxy is not installed (Debian: apt-get install -y haproxy)';

/**
 * haproxy's own answer when no server is up (every health check failing: the database failing
 * over makes every server's fail at once): what the servers answer then, a 503 with
 * Retry-After and a message as JSON, so a client asks again as it would of a server.
 */
export const NO_SERVER_ANSWER = [
  'HTTP/1.1 503 Service Unavailable',
  'Cache-Control: no-store',
  'Connection: close',
  'Content-Type: application/json; charset=utf-8',
  'Retry-After: 2',
  '',
  JSON.stringify({ message: DATABASE_UNAVAILABLE }),
  '',
].join('\r\n');

export function haproxyConfig(
  port: number,
  backends: Backend[],
  statsSocket: string,
  noServerFile: string,
): string {
  const { intervalMs, fall, rise } = HEALTH_CHECK;
  return `global
  maxconn 4000
  stats socket ${statsSocket} mode 600 level admin

defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  # A live page's event stream stays open; pings every 25 s keep it from timing out.
  timeout tunnel 1h
  timeout http-keep-alive 10s
  # A client sending its request a byte at a time holds a connection this long at most.
  timeout http-request 10s
  # Health waits up to 3 s for a primary before it answers 503 itself.
  timeout check 5s
  errorfile 503 ${noServerFile}
  # A request that never reached a server (refused: it is down and not yet marked so) goes to
  # another; one that reached a server is never sent twice.
  retries 2
  option redispatch 1
  retry-on conn-failure

frontend market
  bind 127.0.0.1:${port}
  # The servers trust this balancer's X-Forwarded-For (TRUSTED_PROXIES): it names the client's
  # own address and nothing a client sent (option forwardfor would append to theirs), and the
  # other forwarding headers a client could forge are dropped.
  http-request set-header X-Forwarded-For %[src]
  http-request del-header X-Forwarded-Host
  http-request del-header X-Forwarded-Proto
  http-request del-header Forwarded
  default_backend servers

backend servers
  balance roundrobin
  option httpchk GET /api/health
  http-check expect status 200
  default-server inter ${intervalMs} fall ${fall} rise ${rise}
${backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port} check`).join('\n')}
`;
}

/** Starts haproxy on `port` (a free one by default) and resolves once it accepts connections. */
export async function startBalancer(
  backends: Backend[],
  { port }: { port?: number } = {},
): Promise<Balancer> {
  if (!HAPROXY) throw new Error(balancerMissing() ?? 'no haproxy');
  const listenPort = port ?? (await freePort());
  const dir = await mkdtemp(path.join(os.tmpdir(), 'phone-market-haproxy-'));
  const statsSocket = path.join(dir, 'stats.sock');
  const file = path.join(dir, 'haproxy.cfg');
  const noServerFile = path.join(dir, '503.http');
  await writeFile(noServerFile, NO_SERVER_ANSWER);
  await writeFile(file, haproxyConfig(listenPort, backends, statsSocket, noServerFile));
  execFileSync(HAPROXY, ['-c', '-q', '-f', file], { stdio: 'pipe' });
  const child: ChildProcess = spawn(HAPROXY, ['-db', '-f', file], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  });
  const exited = once(child, 'exit');
  // Never outlives the process that started it (a test runner that ends early, a crash).
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);
  const url = `http://127.0.0.1:${listenPort}`;
  const stop = async () => {
    process.off('exit', orphaned);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`haproxy exited:\n${output}`);
    const accepting = await fetch(`${url}/api/health`)
      .then(() => true)
      .catch(() => false);
    if (accepting) return { url, stop, up: () => serversUp(statsSocket) };
    await sleep(100);
  }
  await stop();
  throw new Error(`haproxy did not accept connections:\n${output}`);
}

/** One server line of haproxy's `show stat`: its listen or backend, name, state and last check. */
export type ServerStat = { proxy: string; name: string; status: string; check: string };

/** Every server haproxy knows of, from its stats socket (`show stat`, CSV). */
export async function serverStats(statsSocket: string): Promise<ServerStat[]> {
  const net = await import('node:net');
  const csv = await new Promise<string>((resolve, reject) => {
    let text = '';
    const socket = net.createConnection(statsSocket, () => socket.end('show stat\n'));
    socket.on('data', (chunk) => {
      text += chunk.toString();
    });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
  const [header = '', ...rows] = csv.replace(/^# /, '').trim().split('\n');
  const columns = header.split(',');
  const at = (row: string[], name: string) => row[columns.indexOf(name)] ?? '';
  return rows
    .map((line) => line.split(','))
    .filter((row) => !['FRONTEND', 'BACKEND'].includes(at(row, 'svname')))
    .map((row) => ({
      proxy: at(row, 'pxname'),
      name: at(row, 'svname'),
      status: at(row, 'status'),
      check: at(row, 'check_status'),
    }));
}

/** The servers haproxy sees as up. */
async function serversUp(statsSocket: string): Promise<string[]> {
  return (await serverStats(statsSocket))
    .filter((s) => s.proxy === 'servers' && s.status.startsWith('UP'))
    .map((s) => s.name);
}
