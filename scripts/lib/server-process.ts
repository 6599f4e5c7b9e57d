/** Runs the real server as a child process on a free port, for scripts that drive it over HTTP. */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export type ServerProcess = {
  url: string;
  /** What the server printed (stdout and stderr), newest last, at most ~2,000 lines. */
  output: () => string[];
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code (null when killed). */
  stop: (graceMs?: number) => Promise<number | null>;
  /** Kills at once; for process exit paths that cannot wait. */
  kill: () => void;
};

/** Starts `src/server/server.ts` with `env` on top of ours and waits until /api/health answers. */
export async function startServer(
  env: Record<string, string>,
  { startTimeoutMs = 120_000 } = {},
): Promise<ServerProcess> {
  const host = '127.0.0.1';
  const port = await freePort(host);
  const url = `http://${host}:${port}`;
  // `node --import tsx` keeps the server in this one child, so SIGTERM reaches it directly.
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', HOST: host, PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (lines.length > 2_000) lines.splice(0, lines.length - 2_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let running = true;
  void exited.then(() => {
    running = false;
  });

  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (!running) {
      throw new Error(`The server exited while starting:\n${lines.slice(-40).join('\n')}`);
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The server did not answer within ${startTimeoutMs} ms`);
    }
    const healthy = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) })
      .then((r) => r.ok)
      .catch(() => false);
    if (healthy) break;
    await new Promise((r) => setTimeout(r, 250));
  }

  return {
    url,
    output: () => [...lines],
    kill: () => {
      if (running) child.kill('SIGKILL');
    },
    stop: async (graceMs = 30_000) => {
      if (!running) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
