/**
 * The scale curve: p50 latency of a category's first page as the catalog grows from 1,000 to
 * 1,000,000 products on PostgreSQL. One server stays up while the seeder tops the catalog up;
 * it reuses no answers (PUBLIC_CACHE_MS=0), so every request runs the query the curve is about.
 */
import { openDatabase } from '../src/server/db/client';
import { withAppServer } from './lib/app-server';
import { sequentialLatency } from './lib/load';
import type { Figure } from './lib/report';
import { seedScale } from './scale-seed';

export const SCALE_STEPS = [1_000, 10_000, 100_000, 1_000_000] as const;
const SECTION = 'Scale curve (PostgreSQL, GET /api/category/01)';
const URL_PATH = '/api/category/01';

export async function benchScaleCurve(databaseUrl: string | undefined): Promise<Figure[]> {
  if (!databaseUrl) {
    return [
      {
        section: SECTION,
        name: 'p50 at 1,000,000 ÷ p50 at 1,000',
        value: null,
        unit: '×',
        target: { op: '<=', value: 1.5 },
        note: 'skipped: no PostgreSQL',
      },
    ];
  }
  const database = await openDatabase({ url: databaseUrl });
  const p50s: number[] = [];
  const figures: Figure[] = [];
  try {
    await withAppServer(
      { databaseUrl, seedDemo: false, env: { PUBLIC_CACHE_MS: '0' } },
      async (origin) => {
        for (const step of SCALE_STEPS) {
          const started = Date.now();
          await seedScale(database.db, step);
          const seedSeconds = (Date.now() - started) / 1000;
          const url = `${origin}${URL_PATH}`;
          await sequentialLatency(url, 100);
          // One connection: the latency a lone visitor sees, not queueing behind others.
          const result = await sequentialLatency(url, 1_000);
          p50s.push(result.p50);
          figures.push({
            section: SECTION,
            name: `p50 at ${step.toLocaleString('en-US')} products`,
            value: result.p50,
            unit: 'ms',
            note: `p99 ${result.p99.toFixed(2)} ms; catalog topped up in ${seedSeconds.toFixed(1)} s`,
          });
        }
      },
    );
  } finally {
    await database.close();
  }
  const first = p50s[0] ?? 0;
  const last = p50s.at(-1) ?? 0;
  figures.push({
    section: SECTION,
    name: 'p50 at 1,000,000 ÷ p50 at 1,000',
    value: first > 0 ? last / first : null,
    unit: '×',
    target: { op: '<=', value: 1.5 },
  });
  return figures;
}
