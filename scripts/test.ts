/**
 * `npm test`: lint, types, unit, component, API (PGlite, then PostgreSQL when
 * TEST_DATABASE_URL is set), the replicated PostgreSQL's failover tests (skipped without
 * Patroni and etcd) and end-to-end tests, in that order; stops at the first failure
 * and closes with one line counting every test run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureChromium } from '../tests/e2e/chromium';

const RESULTS = 'test-results';
type Counts = { passed: number; failed: number; skipped: number };
type Report = Record<string, unknown>;
const total: Counts = { passed: 0, failed: 0, skipped: 0 };
/** Each step's wall time, printed again at the end: where the run's minutes go. */
const timings: string[] = [];

/** Runs one step; counts its report (also when it failed), and stops the run on failure. */
function step(
  title: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  report?: [string, (r: Report) => Counts],
) {
  console.info(`\n▶ ${title}`);
  const started = performance.now();
  const result = spawnSync('npx', args, { stdio: 'inherit', env });
  const seconds = Math.round((performance.now() - started) / 1000);
  timings.push(`${title}: ${seconds} s`);
  console.info(`\n◷ ${title}: ${seconds} s`);
  if (report && existsSync(report[0])) {
    const counts = report[1](JSON.parse(readFileSync(report[0], 'utf8')));
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.skipped += counts.skipped;
  }
  if (result.status !== 0) {
    summarize();
    console.error(`\n✗ ${title} failed`);
    process.exit(result.status ?? 1);
  }
}

const fromVitest = (r: Report): Counts => ({
  passed: Number(r.numPassedTests ?? 0),
  failed: Number(r.numFailedTests ?? 0),
  skipped: Number(r.numPendingTests ?? 0) + Number(r.numTodoTests ?? 0),
});

const fromPlaywright = (r: Report): Counts => {
  const s = r.stats as { expected: number; unexpected: number; flaky: number; skipped: number };
  return { passed: s.expected + s.flaky, failed: s.unexpected, skipped: s.skipped };
};

function vitest(
  title: string,
  project: string,
  env: NodeJS.ProcessEnv,
  exclude: readonly string[] = [],
  /** Only these files, one at a time (they share fixed ports); all of the project when empty. */
  only: readonly string[] = [],
): void {
  const report = path.join(RESULTS, `vitest-${title.replace(/\W+/g, '-').toLowerCase()}.json`);
  const args = ['vitest', 'run', '--project', project, '--reporter=default', '--reporter=json'];
  const excluded = exclude.map((file) => `--exclude=${file}`);
  const alone = only.length > 0 ? [...only, '--no-file-parallelism'] : [];
  step(title, [...args, ...excluded, ...alone, `--outputFile.json=${report}`], env, [
    report,
    fromVitest,
  ]);
}

/**
 * API files that test the HTTP layer's own rules (every call's validation and who may call it)
 * with thousands of generated requests, the same code on either database: with PostgreSQL at
 * hand they run on it alone (decision 046), a third of the PGlite run's time. Without it they run
 * on PGlite, so `npm test` on a bare machine still runs every file.
 */
const SAME_ON_EITHER_DATABASE = [
  'tests/api/security/hostile-input.test.ts',
  'tests/api/security/authorization-matrix.test.ts',
  'tests/api/security/admin-role.test.ts',
  'tests/api/security/identity-attacks.test.ts',
];

/**
 * API files that start a PostgreSQL of their own and never use the run's database: running them
 * in both passes would only do the same thing twice. With PostgreSQL at hand they run in its
 * pass; without it, in PGlite's (where they skip if PostgreSQL's binaries are missing).
 */
const OWN_POSTGRES = ['tests/api/point-in-time-recovery.test.ts', 'tests/api/read-replica.test.ts'];

/**
 * API files that never touch the run's database (PGlite by nature: the backup and the data
 * directory's files, or none at all): the PostgreSQL pass would run them again unchanged.
 */
const NO_RUN_DATABASE = [
  'tests/api/backup.test.ts',
  'tests/api/private-data-dir.test.ts',
  'tests/api/soak-race-check.test.ts',
];

/**
 * Files that run Patroni's replicated PostgreSQL (issue 32) on its fixed ports: one at a time,
 * in a step of their own after the API passes, so two never start a cluster at once and the
 * failover soak's 200 users do not share the cores with the parallel API files.
 */
const REPLICATED_CLUSTER = ['tests/api/postgres-ha.test.ts', 'tests/api/failover-soak.test.ts'];

function summarize(): void {
  console.info(`\ntime by step: ${timings.join(', ')}`);
  console.info(`\ntests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
}

rmSync(RESULTS, { recursive: true, force: true });
const { TEST_DATABASE_URL, ...withoutPostgres } = process.env;

step('lint (biome)', ['biome', 'check', '.'], process.env);
step('types (tsc)', ['tsc', '--noEmit'], process.env);
vitest('unit', 'unit', process.env);
vitest('component', 'component', process.env);
vitest('api on PGlite', 'api', withoutPostgres, [
  ...(TEST_DATABASE_URL ? [...SAME_ON_EITHER_DATABASE, ...OWN_POSTGRES] : []),
  ...REPLICATED_CLUSTER,
]);
if (TEST_DATABASE_URL)
  vitest('api on PostgreSQL', 'api', process.env, [...NO_RUN_DATABASE, ...REPLICATED_CLUSTER]);
else console.info('\n▷ api on PostgreSQL: skipped (set TEST_DATABASE_URL to run it; .ci/run does)');
vitest('replicated PostgreSQL (failover)', 'api', process.env, [], REPLICATED_CLUSTER);

ensureChromium();
step('end-to-end (Playwright, Chromium)', ['playwright', 'test'], process.env, [
  path.join(RESULTS, 'e2e.json'),
  fromPlaywright,
]);
summarize();
