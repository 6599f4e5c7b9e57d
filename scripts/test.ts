/**
 * `npm test`: lint, types, unit, component, API (PGlite, then PostgreSQL when
 * TEST_DATABASE_URL is set) and end-to-end tests, in that order; stops at the first failure
 * and closes with one line counting every test run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureChromium } from '../tests/e2e/chromium';

const RESULTS = 'test-results';
type Counts = { passed: number; failed: number; skipped: number };
const total: Counts = { passed: 0, failed: 0, skipped: 0 };

function run(
  title: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): void {
  console.info(`\n▶ ${title}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  if (result.status !== 0) {
    summarize();
    console.error(`\n✗ ${title} failed`);
    process.exit(result.status ?? 1);
  }
}

function vitest(title: string, project: string, env: NodeJS.ProcessEnv): void {
  const report = path.join(RESULTS, `vitest-${title.replace(/\W+/g, '-').toLowerCase()}.json`);
  run(
    title,
    'npx',
    [
      'vitest',
      'run',
      '--project',
      project,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ],
    env,
  );
  count(report, (r) => ({
    passed: r.numPassedTests ?? 0,
    failed: r.numFailedTests ?? 0,
    skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
  }));
}

function count(report: string, read: (json: Record<string, number>) => Counts): void {
  if (!existsSync(report)) return;
  const c = read(JSON.parse(readFileSync(report, 'utf8')));
  total.passed += c.passed;
  total.failed += c.failed;
  total.skipped += c.skipped;
}

function summarize(): void {
  console.info(`\ntests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
}

rmSync(RESULTS, { recursive: true, force: true });
const { TEST_DATABASE_URL, ...withoutPostgres } = process.env;

run('lint (biome)', 'npx', ['biome', 'check', '.']);
run('types (tsc)', 'npx', ['tsc', '--noEmit']);
vitest('unit', 'unit', process.env);
vitest('component', 'component', process.env);
vitest('api on PGlite', 'api', withoutPostgres);
if (TEST_DATABASE_URL) vitest('api on PostgreSQL', 'api', process.env);
else console.info('\n▷ api on PostgreSQL: skipped (set TEST_DATABASE_URL to run it; .ci/run does)');

ensureChromium();
run('end-to-end (Playwright, Chromium)', 'npx', ['playwright', 'test']);
count(path.join(RESULTS, 'e2e.json'), (r) => {
  const stats = r.stats as unknown as {
    expected: number;
    unexpected: number;
    flaky: number;
    skipped: number;
  };
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped };
});
summarize();
