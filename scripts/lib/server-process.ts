/**
 * The real server (`src/server/server.ts`) as a child process on a free port, for what
 * `app.inject` cannot give: a process that can be killed, restarted or put under load (the
 * crash-safety test, `npm run soak`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const ROOT = path.resolve(import.meta.dirname, '../..');
/** The output's tail: enough to say why a server failed, and all of a run at LOG_LEVEL=warn. */
const OUTPUT_KEPT = 1_000_000;

/** A port nobody listens on right now (the server's PORT must be known before it starts). */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as net.AddressInfo;
  probe.close();
  await once(probe, 'close');
  return port;
}

export type ServerProcess = {
  /** `http://127.0.0.1:PORT`, also the Origin a browser on this page would send. */
  url: string;
  child: ChildProcess;
  /** What the server printed so far (the tail), for failure messages. */
  output: () => string;
  /** SIGKILL: no shutdown hooks, no flushing; resolves when the process is gone. */
  kill: () => Promise<void>;
  /**
   * SIGTERM: the server drains (DRAIN_MS, 0 unless given), closes the app and the database,
   * then exits; resolves its exit code.
   */
  stop: () => Promise<number | null>;
  /** SIGINT (Ctrl-C): closes at once, without a drain; resolves the exit code. */
  interrupt: () => Promise<number | null>;
};

export type ServerOptions = {
  /** Uploads, generated secrets and (without `databaseUrl`) the PGlite files live here. */
  dataDir: string;
  /** PostgreSQL instead of PGlite. */
  databaseUrl?: string;
  /** Reuse a port to restart "the same" server; a free one otherwise. */
  port?: number;
  /** Extra variables (they win over the defaults). */
  env?: Record<string, string>;
  /** How long a start may take before it counts as failed (two minutes: a busy two-core machine). */
  startTimeoutMs?: number;
};

/** Starts the server and resolves once `GET /api/health` answers 200 (database open, migrated). */
export async function startServer(options: ServerOptions): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  // A clean environment: the test runner's NODE_ENV, DATABASE_URL or Stripe keys must not leak in.
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    TMPDIR: process.env.TMPDIR ?? '/tmp',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: options.dataDir,
    SEED_DEMO: '0',
    LOG_LEVEL: 'warn',
    // No load balancer waits on a test's server: SIGTERM closes at once unless a caller asks.
    DRAIN_MS: '0',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...options.env,
  };
  // `node --import tsx` rather than `npx tsx`: one process, so a signal reaches the server itself.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_KEPT);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = once(child, 'exit');
  // Never outlives the process that started it (a test runner that ends early, a crash).
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);
  void exited.then(() => process.off('exit', orphaned));

  const signalled = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
      await exited;
    }
    return child.exitCode;
  };
  const server: ServerProcess = {
    url,
    child,
    output: () => output,
    kill: async () => {
      await signalled('SIGKILL');
    },
    stop: () => signalled('SIGTERM'),
    interrupt: () => signalled('SIGINT'),
  };

  const deadline = Date.now() + (options.startTimeoutMs ?? 120_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `server exited (${child.exitCode ?? child.signalCode}) before it was healthy:\n${output}`,
      );
    }
    const healthy = await fetch(`${url}/api/health`)
      .then((res) => res.ok)
      .catch(() => false);
    if (healthy) return server;
    await sleep(100);
  }
  await server.kill();
  throw new Error(`server was not healthy within the time allowed:\n${output}`);
}
