/** The real server as a child process the bench owns, and the bench's other children. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { freePort, ROOT, startServer } from '../../scripts/lib/server-process';

export { freePort, ROOT };

export async function waitForHttp(url: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/** Children still running; killed when the bench exits, however it exits. */
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

function own(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Starts a Node child the bench owns: it dies with the bench. */
export const spawnOwned = (...args: Parameters<typeof spawn>): ChildProcess => own(spawn(...args));

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Runs `work` against the server, started on `dataDir` (a temporary one, removed after, when not
 * given) and on PostgreSQL when `databaseUrl` is given, through the same helper as the soak and
 * the crash test; the server stops however `work` ends. Request logs are off (LOG_LEVEL=warn):
 * the bench measures the app, not the terminal it would print to.
 */
export async function withAppServer<T>(
  options: {
    dataDir?: string;
    databaseUrl?: string;
    seedDemo: boolean;
    /** Extra variables, e.g. `PUBLIC_CACHE_MS: '0'` to measure the database path. */
    env?: Record<string, string>;
  },
  /** Given the server's address and its process id (for its memory in /proc). */
  work: (origin: string, pid: number) => Promise<T>,
): Promise<T> {
  const dataDir = options.dataDir ?? mkdtempSync('/tmp/phone-market-bench-server.');
  try {
    const server = await startServer({
      dataDir,
      databaseUrl: options.databaseUrl,
      env: { SEED_DEMO: options.seedDemo ? '1' : '0', ...options.env },
      startTimeoutMs: 120_000,
    });
    own(server.child);
    try {
      return await work(server.url, server.child.pid as number);
    } finally {
      await server.stop();
    }
  } finally {
    if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}
