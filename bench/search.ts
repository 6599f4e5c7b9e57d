/**
 * The search at scale (issue 18): ten representative searches on PostgreSQL at 1,000, 100,000
 * and 1,000,000 products, each timed over HTTP with the public answer cache off, and the
 * database's plan of each at the largest size (EXPLAIN ANALYZE of the exact SQL the app sends,
 * caught by a Drizzle logger around the same repository function).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { type Db, openDatabase, SEARCH_WORD_SIMILARITY } from '../src/server/db/client';
import * as schema from '../src/server/db/schema';
import { searchProducts } from '../src/server/repositories/search';
import { searchQuerySchema } from '../src/shared/api';
import { withAppServer } from './lib/app-server';
import { sequentialLatency } from './lib/load';
import type { Figure } from './lib/report';
import { SCALE_RARE_WORD, seedScale } from './scale-seed';

const SECTION = 'Search at scale (PostgreSQL, GET /api/search, PUBLIC_CACHE_MS=0)';
export const SEARCH_STEPS = [1_000, 100_000, 1_000_000] as const;
const REQUESTS = 200;
/** The deep page: the one after this many pages of 24. */
const DEEP_PAGES = 20;

/** What buyers search, by kind: words, words with filters, filters alone, each sort, rare words. */
export const SEARCHES: { name: string; query: string }[] = [
  { name: 'words', query: 'q=iphone+13' },
  { name: 'words with a typo (close matches)', query: 'q=iphnoe+13' },
  { name: 'words + filters', query: 'q=galaxy&storage=256+GB&maxPrice=600' },
  {
    name: 'words + verified + location',
    query: 'q=iphone+pro&condition=Good&location=austin&verified=true',
  },
  { name: 'filters: brand, storage, price', query: 'brand=01&storage=128+GB&maxPrice=450' },
  { name: 'filters, price low to high', query: 'minBattery=4500&ram=8+GB&sort=price-asc' },
  { name: 'words, price low to high', query: 'q=redmi+note&sort=price-asc' },
  { name: 'everything, price high to low', query: 'sort=price-desc' },
  { name: 'a rare word, sold ones too', query: `q=${SCALE_RARE_WORD}&includeSold=true` },
  { name: `words, page ${DEEP_PAGES + 1}`, query: 'q=iphone' },
];

/** The URL of the page after DEEP_PAGES pages, found by following the answers' links. */
async function deepPageUrl(origin: string, query: string): Promise<string> {
  let url = `${origin}/api/search?${query}`;
  for (let i = 0; i < DEEP_PAGES; i++) {
    const res = await fetch(url);
    const next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
    if (!next) break;
    url = new URL(next, origin).href;
  }
  return url;
}

/** EXPLAIN ANALYZE of every statement the repository sends for `query`. */
export async function plansOf(databaseUrl: string, query: string): Promise<string[]> {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 2,
    options: `-c pg_trgm.word_similarity_threshold=${SEARCH_WORD_SIMILARITY}`,
  });
  const statements: { sql: string; params: unknown[] }[] = [];
  const db = drizzle(pool, {
    schema,
    logger: { logQuery: (sql, params) => statements.push({ sql, params }) },
  }) as unknown as Db;
  try {
    await searchProducts(
      db,
      searchQuerySchema.parse(Object.fromEntries(new URLSearchParams(query))),
    );
    const plans: string[] = [];
    for (const s of statements) {
      const result = await pool.query(
        `explain (analyze, costs off, timing off, summary on) ${s.sql}`,
        s.params,
      );
      plans.push(result.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n'));
    }
    return plans;
  } finally {
    await pool.end();
  }
}

export type SearchBench = { figures: Figure[]; plans: string[] };

const METRICS_TOKEN = 'bench-search-metrics';
export const SERVER_ENV = {
  PUBLIC_CACHE_MS: '0',
  SEARCH_RATE_LIMIT: '1000000000',
  METRICS_TOKEN,
};

/**
 * Waits until the server's search counts hold the catalog (decision 034: read again after a bulk
 * load, the database counting meanwhile); answers how long that took, in seconds.
 */
export async function countsRead(origin: string): Promise<number> {
  const started = Date.now();
  for (;;) {
    const health = (await (await fetch(`${origin}/api/health`)).json()) as { searchCounts: string };
    if (health.searchCounts !== 'reading') return (Date.now() - started) / 1000;
    if (Date.now() - started > 600_000)
      throw new Error('the search counts were not read in 10 min');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The server process's resident memory, in MB, from its metrics. */
export async function residentMb(origin: string): Promise<number> {
  const text = await (
    await fetch(`${origin}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  const bytes = Number(/^process_resident_memory_bytes (\S+)$/m.exec(text)?.[1]);
  return bytes / 1024 / 1024;
}

export type Timed = { name: string; query: string; p50: number; p99: number };

/** Each search's median and p99 against `origin` (the deep page's URL found by following links). */
export async function p99s(origin: string): Promise<Timed[]> {
  const out: Timed[] = [];
  for (const [i, search] of SEARCHES.entries()) {
    const url =
      i === SEARCHES.length - 1
        ? await deepPageUrl(origin, search.query)
        : `${origin}/api/search?${search.query}`;
    await sequentialLatency(url, 20);
    const query = new URL(url).search.slice(1);
    out.push({ name: search.name, query, ...(await sequentialLatency(url, REQUESTS)) });
  }
  return out;
}

/** A search's p99 as a figure against the target, its median and query in the note. */
export const p99Figure = (
  section: string,
  { name, query, p50, p99 }: Timed,
  at: string,
  more = '',
): Figure => ({
  section,
  name: `${name} at ${at}: p99`,
  value: p99,
  unit: 'ms',
  target: { op: '<=', value: 50 },
  note: `median ${p50.toFixed(2)} ms; \`${query}\`${more}`,
});

/**
 * The memory the counts of the server at `origin` take (its resident memory minus that of a
 * second server of the same database whose counts are PostgreSQL's), and the same searches on
 * that second server, for comparison. The same data directory: the same secrets, as servers of
 * one database must have.
 */
export async function againCountedByDatabase(
  origin: string,
  server: { databaseUrl: string; dataDir: string },
  { section, at, memoryTarget }: { section: string; at: string; memoryTarget?: Figure['target'] },
): Promise<Figure[]> {
  return withAppServer(
    {
      ...server,
      seedDemo: false,
      env: { ...SERVER_ENV, SEARCH_COUNTS: 'database' },
    },
    async (plain) => {
      const figures: Figure[] = [
        {
          section,
          name: `memory of the search counts at ${at}`,
          value: (await residentMb(origin)) - (await residentMb(plain)),
          unit: 'MB',
          ...(memoryTarget ? { target: memoryTarget } : {}),
          note: 'resident memory of the server holding them minus one that does not',
        },
      ];
      for (const { name, p50, p99 } of await p99s(plain)) {
        figures.push({
          section,
          name: `${name} at ${at}, counted in PostgreSQL: p99`,
          value: p99,
          unit: 'ms',
          note: `for comparison (SEARCH_COUNTS=database); median ${p50.toFixed(2)} ms`,
        });
      }
      return figures;
    },
  );
}

export async function benchSearch(databaseUrl: string | undefined): Promise<SearchBench> {
  if (!databaseUrl) {
    return {
      figures: [
        {
          section: SECTION,
          name: 'worst p99 at 1,000,000',
          value: null,
          unit: 'ms',
          target: { op: '<=', value: 50 },
          note: 'skipped: no PostgreSQL',
        },
      ],
      plans: [],
    };
  }
  const database = await openDatabase({ url: databaseUrl });
  const figures: Figure[] = [];
  const medians = new Map<number, number[]>();
  const worstP99 = new Map<number, number>();
  const plans: string[] = [];
  const dataDir = mkdtempSync('/tmp/phone-market-bench-search.');
  try {
    await withAppServer(
      {
        databaseUrl,
        dataDir,
        seedDemo: false,
        env: SERVER_ENV,
      },
      async (origin) => {
        for (const step of SEARCH_STEPS) {
          const started = Date.now();
          await seedScale(database.db, step);
          const seeded = ((Date.now() - started) / 1000).toFixed(1);
          const read = await countsRead(origin);
          if (step === SEARCH_STEPS.at(-1)) {
            figures.push({
              section: SECTION,
              name: `search counts read at ${step.toLocaleString('en-US')} products`,
              value: read,
              unit: 's',
              note: 'after the bulk load, the database counting meanwhile (decision 034)',
            });
            figures.push(
              ...(await againCountedByDatabase(
                origin,
                { databaseUrl, dataDir },
                {
                  section: SECTION,
                  at: step.toLocaleString('en-US'),
                },
              )),
            );
          }
          const timed = await p99s(origin);
          const stepMedians = timed.map((t) => t.p50);
          const worst = Math.max(...timed.map((t) => t.p99));
          if (step === SEARCH_STEPS.at(-1)) {
            for (const search of timed) {
              figures.push(p99Figure(SECTION, search, step.toLocaleString('en-US')));
              const { name, query } = search;
              const statementPlans = await plansOf(databaseUrl, query);
              plans.push(
                `### ${name}: \`${query}\`\n\n${statementPlans.map((p) => `\`\`\`\n${p}\n\`\`\``).join('\n\n')}`,
              );
            }
          }
          medians.set(step, stepMedians);
          worstP99.set(step, worst);
          const median =
            [...stepMedians].sort((a, b) => a - b)[Math.floor(stepMedians.length / 2)] ?? 0;
          figures.push({
            section: SECTION,
            name: `median of the ten at ${step.toLocaleString('en-US')} products`,
            value: median,
            unit: 'ms',
            note: `worst p99 ${worst.toFixed(2)} ms; catalog topped up in ${seeded} s`,
          });
        }
      },
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await database.close();
  }
  const first = medians.get(SEARCH_STEPS[0]) ?? [];
  const last = medians.get(1_000_000) ?? [];
  // Search by search, how much slower at 1,000,000 than at 1,000; the worst of the ten.
  const ratios = last.map((m, i) => m / (first[i] ?? m));
  const worst = ratios.indexOf(Math.max(...ratios));
  figures.push(
    {
      section: SECTION,
      name: 'worst p99 at 1,000,000',
      value: worstP99.get(1_000_000) ?? null,
      unit: 'ms',
      target: { op: '<=', value: 50 },
    },
    {
      section: SECTION,
      name: 'worst median at 1,000,000 ÷ its median at 1,000',
      value: ratios.length ? Math.max(...ratios) : null,
      unit: '×',
      target: { op: '<=', value: 2 },
      note:
        worst < 0
          ? undefined
          : `${SEARCHES[worst]?.name}: median ${last[worst]?.toFixed(2)} ms at 1,000,000, ${first[worst]?.toFixed(2)} ms at 1,000; the medians at 1,000: ${first.map((m) => m.toFixed(2)).join(', ')} ms`,
    },
  );
  return { figures, plans };
}
