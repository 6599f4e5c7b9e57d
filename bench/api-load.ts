/**
 * API under load: the three public reads on a catalog of 100,000 products, against the real
 * server, and the same bytes from a bare `node:http` server as this machine's ceiling.
 *
 * Then with the answer cache off (PUBLIC_CACHE_MS=0, every request reads the database), the
 * category page, the advertised list and a search, each against the database alone (issue 23):
 * the statements the server sends for that request, recorded from the repository functions
 * themselves (the pg.Pool's `query` wrapped, so the exact SQL, parameters and statement names),
 * run straight on the `pg` driver with the same pool and load shape (lib/driver-worker.ts),
 * each right after the app's own measurement of that read. The app's share of the driver's
 * throughput is what the server adds on top of the database (target: the category page at least
 * 50%, on PostgreSQL).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { type Db, openDatabase, SEARCH_WORD_SIMILARITY } from '../src/server/db/client';
import * as schema from '../src/server/db/schema';
import { listAdvertised, listCategoryProducts } from '../src/server/repositories/products';
import { searchProducts } from '../src/server/repositories/search';
import { paginationQuerySchema, searchQuerySchema } from '../src/shared/api';
import { freePort, spawnOwned, stopChild, waitForHttp, withAppServer } from './lib/app-server';
import type { Canned } from './lib/bare-server';
import type { DriverStatement } from './lib/driver-worker';
import { type LoadResult, runDriverLoad, runLoad } from './lib/load';
import type { Figure } from './lib/report';
import { seedScale } from './scale-seed';

export const LOAD_PRODUCTS = 100_000;
export const ENDPOINTS = ['/api/category/01', '/api/advertise', '/api/category'] as const;
const SEARCH = '/api/search?q=iphone';
/** With the answer cache off: the three reads, and a search. */
export const UNCACHED_ENDPOINTS = [...ENDPOINTS, SEARCH] as const;
/** The reads compared with the database alone (the brands list is reference data). */
const DRIVER_COMPARED = ['/api/category/01', '/api/advertise', SEARCH] as const;
const LOAD = { connections: 10, duration: 8 };
/** The server's pool (src/server/db/client.ts): its size and its connections' options. */
const SERVER_POOL = {
  max: 10,
  options: `-c pg_trgm.word_similarity_threshold=${SEARCH_WORD_SIMILARITY}`,
};
const SECTION = 'API under load (100,000 products)';

type Endpoint = (typeof ENDPOINTS)[number];
type UncachedEndpoint = (typeof UNCACHED_ENDPOINTS)[number];
type Compared = (typeof DRIVER_COMPARED)[number];
type Measured = Record<Endpoint, LoadResult>;
type AppRun = {
  kind: 'PGlite' | 'PostgreSQL';
  app: Measured;
  ceiling: Measured;
  /** The app reusing no answers: every request reads the database. */
  uncached: Record<UncachedEndpoint, LoadResult>;
  /** PostgreSQL only: the same statements straight on the driver, and how many a request sends. */
  driver?: Record<Compared, LoadResult & { statements: number }>;
};

/**
 * The statements the server sends for each compared read, in order: the repository functions
 * the routes call, with the query each route's schema parses from the URL, on a pool whose
 * `query` records what Drizzle hands it (SQL, parameters, statement name, row mode).
 */
export async function recordStatements(
  databaseUrl: string,
): Promise<Record<Compared, DriverStatement[]>> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1, options: SERVER_POOL.options });
  const recorded: DriverStatement[] = [];
  const query = pool.query.bind(pool) as (config: unknown, values?: unknown) => Promise<unknown>;
  (pool as unknown as { query: typeof query }).query = (config, values) => {
    const c = config as { name?: string; text: string; rowMode?: 'array' };
    recorded.push({
      name: c.name ?? null,
      text: c.text,
      rowMode: c.rowMode ?? null,
      values: (values as unknown[] | undefined) ?? [],
    });
    return query(config, values);
  };
  const db = drizzle(pool, { schema }) as unknown as Db;
  const params = (endpoint: string) =>
    Object.fromEntries(new URL(endpoint, 'http://x').searchParams);
  const record = async (work: () => Promise<unknown>) => {
    recorded.length = 0;
    await work();
    return [...recorded];
  };
  try {
    return {
      '/api/category/01': await record(() =>
        listCategoryProducts(db, '01', paginationQuerySchema.parse(params('/api/category/01'))),
      ),
      '/api/advertise': await record(() =>
        listAdvertised(db, paginationQuerySchema.parse(params('/api/advertise'))),
      ),
      [SEARCH]: await record(() => searchProducts(db, searchQuerySchema.parse(params(SEARCH)))),
    };
  } finally {
    await pool.end();
  }
}

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

/** One read under load: a short warm-up first (JIT, connection pools, PostgreSQL's buffers). */
async function measureEndpoint(origin: string, endpoint: string): Promise<LoadResult> {
  await runLoad({ url: `${origin}${endpoint}`, connections: LOAD.connections, duration: 2 });
  return runLoad({ url: `${origin}${endpoint}`, ...LOAD });
}

async function measureEndpoints(origin: string): Promise<Measured> {
  const out: Partial<Measured> = {};
  for (const endpoint of ENDPOINTS) out[endpoint] = await measureEndpoint(origin, endpoint);
  return out as Measured;
}

/** The same statements on the driver alone, warmed up as the app is. */
async function measureDriver(databaseUrl: string, statements: DriverStatement[]) {
  const options = {
    databaseUrl,
    connectionOptions: SERVER_POOL.options,
    poolSize: SERVER_POOL.max,
    statements,
    connections: LOAD.connections,
  };
  await runDriverLoad({ ...options, duration: 2 });
  return {
    ...(await runDriverLoad({ ...options, duration: LOAD.duration })),
    statements: statements.length,
  };
}

/**
 * The app with the answer cache off; on PostgreSQL each compared read's driver run right after
 * the app's (the server idles meanwhile), so the two share the machine's state of the moment.
 */
async function measureUncached(
  origin: string,
  databaseUrl: string | undefined,
  statements: Record<Compared, DriverStatement[]> | undefined,
): Promise<Pick<AppRun, 'uncached' | 'driver'>> {
  const uncached: Partial<AppRun['uncached']> = {};
  const driver: Partial<NonNullable<AppRun['driver']>> = {};
  for (const endpoint of UNCACHED_ENDPOINTS) {
    uncached[endpoint] = await measureEndpoint(origin, endpoint);
    const compared = DRIVER_COMPARED.find((e) => e === endpoint);
    if (databaseUrl && statements && compared)
      driver[compared] = await measureDriver(databaseUrl, statements[compared]);
  }
  return {
    uncached: uncached as AppRun['uncached'],
    ...(statements ? { driver: driver as AppRun['driver'] } : {}),
  };
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
    const statements = databaseUrl ? await recordStatements(databaseUrl) : undefined;
    const server = { dataDir, databaseUrl, seedDemo: false };
    const [app, ceiling] = await withAppServer(server, async (origin) => [
      await measureEndpoints(origin),
      await measureCeiling(origin),
    ]);
    // Every request reading the database (decision 015 turned off); searches not rate-limited.
    const uncached = await withAppServer(
      { ...server, env: { PUBLIC_CACHE_MS: '0', SEARCH_RATE_LIMIT: '1000000000' } },
      (origin) => measureUncached(origin, databaseUrl, statements),
    );
    return { kind, app, ceiling, ...uncached };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function figuresOf(run: AppRun): Figure[] {
  const figures: Figure[] = [];
  for (const endpoint of ENDPOINTS) {
    const app = run.app[endpoint];
    const bare = run.ceiling[endpoint];
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
    );
  }
  for (const endpoint of UNCACHED_ENDPOINTS) {
    const uncached = run.uncached[endpoint];
    const label = `${run.kind} GET ${endpoint} with PUBLIC_CACHE_MS=0`;
    figures.push({
      section: SECTION,
      name: `${label} req/s`,
      value: uncached.requestsPerSecond,
      unit: 'req/s',
      note: `every request reads the database; p50 ${uncached.p50} ms, p99 ${uncached.p99} ms`,
    });
    const compared = DRIVER_COMPARED.find((e) => e === endpoint);
    const driver = compared && run.driver?.[compared];
    if (!driver) continue;
    figures.push({
      section: SECTION,
      name: `${label}, share of the pg driver alone`,
      value: (uncached.requestsPerSecond / driver.requestsPerSecond) * 100,
      unit: '%',
      ...(endpoint === '/api/category/01' ? { target: { op: '>=' as const, value: 50 } } : {}),
      note: `the same ${driver.statements} statement${driver.statements === 1 ? '' : 's'} a request straight on pg (pool of ${SERVER_POOL.max}, ${LOAD.connections} loops): ${driver.requestsPerSecond.toFixed(0)} req/s, p50 ${driver.p50.toFixed(2)} ms, p99 ${driver.p99.toFixed(2)} ms`,
    });
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
      {
        section: SECTION,
        name: 'PostgreSQL GET /api/category/01 with PUBLIC_CACHE_MS=0, share of the pg driver alone',
        value: null,
        unit: '%',
        target: { op: '>=' as const, value: 50 },
        note: 'skipped: no PostgreSQL',
      },
    );
  return figures;
}
