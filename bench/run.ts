/**
 * `npm run bench`: builds the client, then measures build budgets, Lighthouse (quiet and with one
 * core busy), the main thread's script work per page, the API under load, the scale curve and
 * the image pipeline; writes bench/results/latest.{md,json} and prints each figure next to its
 * target. A benchmark, not a test: it never fails on a missed target.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildClient } from '../scripts/client-build';
import { ensureChromium } from '../tests/e2e/chromium';
import { benchApiLoad } from './api-load';
import { benchBalancer } from './balancer';
import { budgetFigures } from './budgets';
import { benchBulk } from './bulk';
import { benchImages } from './images';
import { benchInteractions } from './interactions';
import { ROOT, withAppServer } from './lib/app-server';
import { createDatabase, startPostgres } from './lib/postgres';
import { type Figure, type PartResult, type Report, summaryOf, writeReport } from './lib/report';
import { benchLighthouse } from './lighthouse';
import { benchMainThread } from './main-thread';
import { benchPhotoMatch } from './photo-match';
import { benchReplica } from './replica';
import { benchSavedSearches } from './saved-searches';
import { benchScaleCurve } from './scale-curve';
import { benchSearch } from './search';
import { benchSearchTenMillion, KEPT_DIR } from './search-10m';
import { benchSignUpFlood } from './signup-flood';
import { benchViews } from './views';

// Ctrl-C: exit through 'exit' so the servers and PostgreSQL the bench started stop too.
process.once('SIGINT', () => process.exit(130));

const CLIENT_DIR = path.join(ROOT, 'dist/client');
const started = Date.now();
const figures: Figure[] = [];
const notes: string[] = [];
const appendix: NonNullable<Report['appendix']> = [];

/**
 * `npm run bench -- --only=search,lighthouse` runs those parts alone (names: budgets, lighthouse,
 * main-thread, interactions, api-load, balancer, scale-curve, search, search-10m, saved-searches,
 * photo-match, replica, images, signup-flood, views, bulk) and writes
 * bench/results/partial.{md,json}, leaving the whole run's latest.{md,json} as they are.
 * `lighthouse` runs both of its modes, quiet and one core busy, side by side (bench/lighthouse.ts);
 * `main-thread` is the unthrottled script evaluation per page and its top scripts
 * (bench/main-thread.ts).
 */
const only = process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const wanted = (part: string) => only === undefined || only.includes(part);

const step = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
  const t = Date.now();
  console.info(`bench: ${name}…`);
  const out = await work();
  const took = (Date.now() - t) / 1000;
  console.info(`bench: ${name} done in ${took.toFixed(0)} s`);
  figures.push({ section: 'How long each part took', name, value: took, unit: 's' });
  return out;
};

// Always a fresh production build: the budgets must weigh what the sources make now.
await step('building the client', async () => {
  await buildClient();
});
if (wanted('budgets')) figures.push(...budgetFigures(CLIENT_DIR));

// Debian's Chromium as `npm test` finds or installs it; else the one Playwright installed.
const chromium = ensureChromium() ?? (await import('@playwright/test')).chromium.executablePath();
const addPart = (part: PartResult) => {
  figures.push(...part.figures);
  notes.push(...part.notes);
  appendix.push(...part.appendix);
};
if (wanted('lighthouse') || wanted('main-thread'))
  await withAppServer({ seedDemo: true }, async (origin) => {
    if (wanted('lighthouse'))
      addPart(await step('Lighthouse', () => benchLighthouse(origin, chromium)));
    if (wanted('main-thread'))
      addPart(
        await step('main-thread script evaluation', () =>
          benchMainThread(origin, chromium, CLIENT_DIR),
        ),
      );
  });

if (wanted('interactions')) {
  // A data directory of its own: the demo admin's password is kept there (the review queue).
  const dataDir = mkdtempSync('/tmp/phone-market-bench-interactions.');
  try {
    await withAppServer({ seedDemo: true, dataDir }, async (origin) =>
      addPart(await step('interactions', () => benchInteractions(origin, dataDir, chromium))),
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const needsPostgres = [
  'api-load',
  'balancer',
  'scale-curve',
  'search',
  'saved-searches',
  'photo-match',
].some(wanted);
const postgres = needsPostgres ? startPostgres() : { skipped: 'not asked for (--only)' };
if ('skipped' in postgres) notes.push(`PostgreSQL parts skipped: ${postgres.skipped}.`);
// However the bench ends (an error, Ctrl-C), its PostgreSQL stops and its files go.
let postgresStopped = false;
const stopPostgres = () => {
  if (postgresStopped || !('stop' in postgres)) return;
  postgresStopped = true;
  postgres.stop();
};
process.once('exit', stopPostgres);
try {
  const serverUrl = 'url' in postgres ? postgres.url : undefined;
  if (wanted('api-load')) {
    const loadUrl = serverUrl && (await createDatabase(serverUrl, 'bench_load'));
    figures.push(...(await step('API under load', () => benchApiLoad(loadUrl || undefined))));
  }
  if (wanted('balancer')) {
    figures.push(...(await step('behind a load balancer', () => benchBalancer(serverUrl))));
  }
  if (wanted('scale-curve')) {
    const scaleUrl = serverUrl && (await createDatabase(serverUrl, 'bench_scale'));
    figures.push(...(await step('scale curve', () => benchScaleCurve(scaleUrl || undefined))));
  }
  if (wanted('saved-searches')) {
    const savedUrl = serverUrl && (await createDatabase(serverUrl, 'bench_saved_searches'));
    figures.push(
      ...(await step('saved searches', () => benchSavedSearches(savedUrl || undefined))),
    );
  }
  if (wanted('photo-match')) {
    const photoUrl = serverUrl && (await createDatabase(serverUrl, 'bench_photo_match'));
    figures.push(...(await step('photo match', () => benchPhotoMatch(photoUrl || undefined))));
  }
  const searchUrl =
    wanted('search') && serverUrl && (await createDatabase(serverUrl, 'bench_search'));
  const search = wanted('search')
    ? await step('search at scale', () => benchSearch(searchUrl || undefined))
    : { figures: [], plans: [] };
  figures.push(...search.figures);
  if (search.plans.length) {
    appendix.push({
      title: 'Search plans at 1,000,000 products (EXPLAIN ANALYZE)',
      // The last statement of a first page is PostgreSQL's count, which runs only when the
      // counts kept in the server cannot answer (decision 034): shown as the fallback it is.
      markdown: [
        'Every statement of each search as `searchProducts` sends it without the counts kept in the server; with them (the default), the count statement (the last one of a first page that holds fewer than all its matches) runs only while they are read or unsure.',
        ...search.plans,
      ].join('\n\n'),
    });
  }
} finally {
  stopPostgres();
}

// Its own PostgreSQL, whose ten million phones are kept between runs (bench/search-10m.ts).
if (wanted('search-10m')) {
  figures.push(...(await step('search at ten million', benchSearchTenMillion)));
  notes.push(
    `The ten million phones are kept in ${KEPT_DIR} (BENCH_10M_DIR); remove it to build them anew.`,
  );
}
// A primary and a standby of its own (the shared PostgreSQL above has no replica).
if (wanted('replica')) figures.push(...(await step('read replica', benchReplica)));
if (wanted('images')) figures.push(...(await step('image pipeline', benchImages)));
if (wanted('signup-flood')) figures.push(...(await step('sign-up flood', benchSignUpFlood)));
if (wanted('views')) figures.push(...(await step('views counted', benchViews)));
if (wanted('bulk')) figures.push(...(await step('bulk listing', benchBulk)));

notes.push(
  'Load: autocannon in a child process, 10 connections, 8 s per endpoint after a 2 s warm-up; the server logs at warn (no request logs).',
  'The public reads reuse an answer for up to 1 s (PUBLIC_CACHE_MS, decision 015); the rows marked PUBLIC_CACHE_MS=0 and the scale curve read the database on every request.',
  'The throwaway PostgreSQL runs with fsync off: the bench measures reads, not durability.',
);
const cpus = os.cpus();
const report: Report = {
  startedAt: new Date(started).toISOString(),
  durationSeconds: (Date.now() - started) / 1000,
  machine: {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGb: os.totalmem() / 1024 ** 3,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  },
  figures,
  notes,
  appendix,
};
const name = only ? 'partial' : 'latest';
await writeReport(path.join(ROOT, 'bench/results'), report, name);
console.info(`\n${summaryOf(report)}\nbench: wrote bench/results/${name}.md and ${name}.json`);
