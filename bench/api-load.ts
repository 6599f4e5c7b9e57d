/**
 * API under load: the three public reads on a catalog of 100,000 products, against the real
 * server, and the same bytes from a bare `node:http` server as this machine's ceiling.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../src/server/db/client';
import { freePort, spawnOwned, stopChild, waitForHttp, withAppServer } from './lib/app-server';
import type { Canned } from './lib/bare-server';
import { type LoadResult, runLoad } from './lib/load';
import type { Figure } from './lib/report';
import { seedScale } from './scale-seed';

export const LOAD_PRODUCTS = 100_000;
export const ENDPOINTS = ['/api/category/01', '/api/advertise', '/api/category'] as const;
const LOAD = { connections: 10, duration: 8 };
const SECTION = 'API under load (100,000 products)';

type Endpoint = (typeof ENDPOINTS)[number];
type Measured = Record<Endpoint, LoadResult>;
type AppRun = {
  kind: 'PGlite' | 'PostgreSQL';
  app: Measured;
  ceiling: Measured;
  /** The app reusing no answers: every request reads the database. */
  uncached: Measured;
};

/** Measures the bare ceiling for the bytes the app answers at `origin`. */
async function measureCeiling(origin: string): Promise<Measured> {
  const canned: Canned = {};
  for (const endpoint of ENDPOINTS) {
    const res = await fetch(`${origin}${endpoint}`);
    canned[endpoint] = {
      contentType: res.headers.get('content-type') ?? 'application/json',
      body: Buffer.from(await res.arrayBuffer()).toString('base64'),
    };
  }
  const dir = mkdtempSync('/tmp/phone-market-bench-bare.');
  const file = path.join(dir, 'canned.json');
  writeFileSync(file, JSON.stringify(canned));
  const port = await freePort();
  const child: ChildProcess = spawnOwned(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'lib/bare-server.ts'), file, String(port)],
    { stdio: 'ignore' },
  );
  try {
    await waitForHttp(`http://127.0.0.1:${port}${ENDPOINTS[2]}`);
    return await measureEndpoints(`http://127.0.0.1:${port}`);
  } finally {
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measureEndpoints(origin: string): Promise<Measured> {
  const out: Partial<Measured> = {};
  for (const endpoint of ENDPOINTS) {
    // A short warm-up first: JIT, connection pools, PostgreSQL's buffer cache.
    await runLoad({ url: `${origin}${endpoint}`, connections: LOAD.connections, duration: 2 });
    out[endpoint] = await runLoad({ url: `${origin}${endpoint}`, ...LOAD });
  }
  return out as Measured;
}

/** Seeds a fresh database of the kind given and measures the app on it. */
async function measureApp(kind: AppRun['kind'], databaseUrl?: string): Promise<AppRun> {
  const dataDir = mkdtempSync('/tmp/phone-market-bench-load.');
  try {
    const database = await openDatabase(
      databaseUrl ? { url: databaseUrl } : { dataDir: `${dataDir}/db` },
    );
    await seedScale(database.db, LOAD_PRODUCTS);
    await database.close();
    const server = { dataDir, databaseUrl, seedDemo: false };
    const [app, ceiling] = await withAppServer(server, async (origin) => [
      await measureEndpoints(origin),
      await measureCeiling(origin),
    ]);
    // For context: every request reading the database (decision 015 turned off).
    const uncached = await withAppServer(
      { ...server, env: { PUBLIC_CACHE_MS: '0' } },
      measureEndpoints,
    );
    return { kind, app, ceiling, uncached };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function figuresOf(run: AppRun): Figure[] {
  const figures: Figure[] = [];
  for (const endpoint of ENDPOINTS) {
    const app = run.app[endpoint];
    const bare = run.ceiling[endpoint];
    const uncached = run.uncached[endpoint];
    const label = `${run.kind} GET ${endpoint}`;
    figures.push(
      { section: SECTION, name: `${label} req/s`, value: app.requestsPerSecond, unit: 'req/s' },
      { section: SECTION, name: `${label} p50`, value: app.p50, unit: 'ms' },
      { section: SECTION, name: `${label} p99`, value: app.p99, unit: 'ms' },
      {
        section: SECTION,
        name: `${label} share of bare ceiling`,
        value: (app.requestsPerSecond / bare.requestsPerSecond) * 100,
        unit: '%',
        // The target is set for PostgreSQL, the production database; PGlite is for context.
        ...(run.kind === 'PostgreSQL' ? { target: { op: '>=' as const, value: 50 } } : {}),
        note: `bare node:http ${bare.requestsPerSecond.toFixed(0)} req/s, p50 ${bare.p50} ms`,
      },
      {
        section: SECTION,
        name: `${label} with PUBLIC_CACHE_MS=0 req/s`,
        value: uncached.requestsPerSecond,
        unit: 'req/s',
        note: `every request reads the database; p50 ${uncached.p50} ms, p99 ${uncached.p99} ms`,
      },
    );
  }
  return figures;
}

export async function benchApiLoad(postgresUrl: string | undefined): Promise<Figure[]> {
  const figures = figuresOf(await measureApp('PGlite'));
  if (postgresUrl) figures.push(...figuresOf(await measureApp('PostgreSQL', postgresUrl)));
  else
    figures.push(
      ...ENDPOINTS.map((e) => ({
        section: SECTION,
        name: `PostgreSQL GET ${e} share of bare ceiling`,
        value: null,
        unit: '%',
        target: { op: '>=' as const, value: 50 },
        note: 'skipped: no PostgreSQL',
      })),
    );
  return figures;
}
