/**
 * Two builds side by side under Lighthouse (decision 064): a tool to run by hand, for a change's
 * before and after on this noisy machine, where two runs an hour apart differ more than most
 * changes do. Both servers are up at once (say, a worktree of the last commit on one port and the
 * working tree on another, each `npm start` on the demo data); each path is loaded on one, then
 * the other, alternating which goes first, so both sides see the same minutes of the machine.
 *
 *   npx tsx bench/lighthouse-ab.ts [--runs=4] http://localhost:3401 http://localhost:3400 / /category/01 /product
 *
 * `/product` stands for each server's demo phone page, as the Lighthouse bench picks it (their ids
 * differ). Prints, per side and path, the performance score and TBT (median and every run), FCP
 * and LCP medians and Lighthouse's benchmarkIndex.
 */
import lighthouse from 'lighthouse';
import { launchChrome } from './lib/chrome';
import { median } from './lib/stats';
import { publicPages } from './lighthouse';

const runsArg = process.argv.find((a) => a.startsWith('--runs='));
const RUNS = runsArg ? Number(runsArg.slice('--runs='.length)) : 4;
const [originA, originB, ...paths] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (!originA || !originB || paths.length === 0) {
  console.error('usage: npx tsx bench/lighthouse-ab.ts [--runs=4] <origin A> <origin B> <path>...');
  process.exit(2);
}

type Figures = {
  performance: number[];
  tbt: number[];
  fcp: number[];
  lcp: number[];
  index: number[];
};

/** The path asked, or for `/product` the demo phone page the Lighthouse bench measures. */
async function resolvePath(origin: string, path: string): Promise<string> {
  if (path !== '/product') return path;
  const phone = (await publicPages(origin)).find((page) => page.label === '/product/:id');
  if (!phone) throw new Error(`no phone for sale on ${origin}/category/01`);
  return phone.path;
}

const chrome = await launchChrome(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium');
const figures = new Map<string, Figures>();
try {
  for (const path of paths) {
    const sides = [
      { label: 'A', url: `${originA}${await resolvePath(originA, path)}` },
      { label: 'B', url: `${originB}${await resolvePath(originB, path)}` },
    ];
    for (let run = 0; run < RUNS; run++) {
      for (const side of run % 2 ? [...sides].reverse() : sides) {
        const result = await lighthouse(side.url, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance'],
        });
        const lhr = result?.lhr;
        if (!lhr || lhr.runtimeError) {
          console.warn(`${side.label} ${path}: no result (${lhr?.runtimeError?.code ?? 'none'})`);
          continue;
        }
        const key = `${side.label} ${path}`;
        const f = figures.get(key) ?? { performance: [], tbt: [], fcp: [], lcp: [], index: [] };
        const metric = (id: string) => Math.round(lhr.audits[id]?.numericValue ?? Number.NaN);
        f.performance.push(Math.round((lhr.categories.performance?.score ?? 0) * 100));
        f.tbt.push(metric('total-blocking-time'));
        f.fcp.push(metric('first-contentful-paint'));
        f.lcp.push(metric('largest-contentful-paint'));
        f.index.push(Math.round(lhr.environment.benchmarkIndex));
        figures.set(key, f);
      }
    }
  }
} finally {
  chrome.kill();
}

console.info(`Lighthouse mobile, ${RUNS} runs a side, alternating; A ${originA}, B ${originB}`);
for (const [key, f] of figures) {
  console.info(
    `${key.padEnd(16)} performance ${median(f.performance)} [${f.performance.join(', ')}]  TBT ${median(f.tbt)} ms [${f.tbt.join(', ')}]  FCP ${median(f.fcp)} ms  LCP ${median(f.lcp)} ms  benchmarkIndex ${median(f.index)}`,
  );
}
