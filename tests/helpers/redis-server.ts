/**
 * A real Redis on loopback for the tests and `npm run cluster`: `redis-server` (Debian's
 * package; CI installs it) on a free port, keeping nothing on disk, ended by `close`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import os from 'node:os';

export type TestRedisServer = {
  url: string;
  port: number;
  close: () => Promise<void>;
};

const READY = /Ready to accept connections/;

/** A port nobody listens on just now (the kernel's pick for port 0). */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

/** Starts Redis, on `port` when given (a test restarting it where the servers look for it). */
export async function startRedisServer({ port }: { port?: number } = {}): Promise<TestRedisServer> {
  const chosen = port ?? (await freePort());
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(chosen),
      '--bind',
      '127.0.0.1',
      // No snapshot and no append-only file: a test's counts are gone when it ends.
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      os.tmpdir(),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await ready(child, chosen);
  return {
    url: `redis://127.0.0.1:${chosen}`,
    port: chosen,
    close: () => stop(child),
  };
}

function ready(child: ChildProcess, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not start on port ${port}:\n${output}`));
    }, 10_000);
    const settle = (err?: Error) => {
      clearTimeout(timer);
      // Its log keeps flowing, and is let go: a full pipe would stop Redis.
      child.stdout?.off('data', read).resume();
      if (err) reject(err);
      else resolve();
    };
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (READY.test(output)) settle();
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', (err: NodeJS.ErrnoException) =>
      settle(
        err.code === 'ENOENT'
          ? new Error(
              'redis-server is not installed: the shared limits are tested against a real Redis. Install it (Debian: apt-get install redis-server).',
            )
          : err,
      ),
    );
    child.once('exit', (code) =>
      settle(new Error(`redis-server exited with code ${code} before it was ready:\n${output}`)),
    );
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
