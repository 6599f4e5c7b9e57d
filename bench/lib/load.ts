/** Load from a second process: autocannon in a child, answering requests/s and latency percentiles. */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './app-server';
import type { DriverLoadOptions } from './driver-worker';

export type LoadResult = {
  requestsPerSecond: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  total: number;
};

export type LoadOptions = { url: string; connections: number; duration: number };

const run = promisify(execFile);

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const worker = path.join(import.meta.dirname, 'autocannon-worker.ts');
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', worker, JSON.stringify(options)],
    {
      cwd: ROOT,
      maxBuffer: 10 * 1024 * 1024,
    },
  );
  const result = JSON.parse(stdout) as LoadResult;
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(
      `${options.url}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`,
    );
  }
  return result;
}

/**
 * Latency of one visitor: `count` requests one after another on a kept-alive connection,
 * timed to the microsecond (autocannon rounds to whole milliseconds, too coarse for a ratio).
 */
export async function sequentialLatency(
  url: string,
  count: number,
): Promise<{ p50: number; p99: number }> {
  const { Agent, get } = await import('node:http');
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const once = () =>
    new Promise<number>((resolve, reject) => {
      const started = process.hrtime.bigint();
      get(url, { agent }, (res) => {
        res.on('data', () => {});
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`${url}: status ${res.statusCode}`));
          else resolve(Number(process.hrtime.bigint() - started) / 1e6);
        });
      }).on('error', reject);
    });
  const times: number[] = [];
  for (let i = 0; i < count; i++) times.push(await once());
  agent.destroy();
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99) };
}

/**
 * The same load shape straight on the `pg` driver (driver-worker.ts), from a child process as
 * autocannon runs: one request's statements per iteration, `connections` loops at once.
 */
export async function runDriverLoad(options: DriverLoadOptions): Promise<LoadResult> {
  const worker = path.join(import.meta.dirname, 'driver-worker.ts');
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', worker, JSON.stringify(options)],
    { cwd: ROOT, maxBuffer: 10 * 1024 * 1024 },
  );
  const result = JSON.parse(stdout) as LoadResult;
  if (result.errors > 0) throw new Error(`the driver alone: ${result.errors} errors under load`);
  return result;
}
