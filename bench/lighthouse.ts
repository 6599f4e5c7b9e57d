/**
 * Lighthouse on the public pages, as the issue asks: the `lighthouse` package's Node API,
 * Debian's Chromium (headless), its default mobile emulation and simulated throttling, three
 * runs a page and the median of each figure, in the light theme and again in the dark one (the
 * page follows the system's preference). The home run also gives the bytes it transfers.
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import type { Figure } from './lib/report';

export const LIGHTHOUSE_PAGES = [
  '/',
  '/category/01',
  '/search?q=iphone',
  '/blog',
  '/signin',
] as const;
const RUNS = 3;
const SECTION = 'Lighthouse (mobile, simulated throttling, median of 3)';

type Run = {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpSeconds: number;
  cls: number;
  tbtMs: number;
  transferKb: number;
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

async function runOnce(url: string, port: number): Promise<Run> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { categories, audits, runtimeError } = result.lhr;
  if (runtimeError)
    throw new Error(`Lighthouse on ${url}: ${runtimeError.code} ${runtimeError.message}`);
  const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
  const metric = (id: string) => audits[id]?.numericValue ?? Number.NaN;
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcpSeconds: metric('largest-contentful-paint') / 1000,
    cls: metric('cumulative-layout-shift'),
    tbtMs: metric('total-blocking-time'),
    transferKb: metric('total-byte-weight') / 1024,
  };
}

/** Lighthouse now and then loses a trace (NO_NAVSTART, NO_FCP on a busy machine): run again. */
async function withRetry<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (attempt >= attempts) throw err;
      console.warn(`bench: ${(err as Error).message}; running it again`);
    }
  }
}

/** Chromium's flags for each theme: `prefers-color-scheme` answers light, or dark. */
const THEMES = {
  light: [],
  dark: ['--blink-settings=preferredColorScheme=0'],
} as const;

/** A phone's own page (issue 18): the newest demo phone of the first brand, by its id. */
async function phonePage(origin: string): Promise<{ path: string; label: string } | null> {
  const res = await fetch(`${origin}/api/category/01?limit=1`);
  const [phone] = res.ok ? ((await res.json()) as { _id: string }[]) : [];
  return phone ? { path: `/product/${phone._id}`, label: '/product/:id' } : null;
}

export async function benchLighthouse(origin: string, chromiumPath: string): Promise<Figure[]> {
  const phone = await phonePage(origin);
  const pages = [
    ...LIGHTHOUSE_PAGES.map((path) => ({ path, label: path })),
    ...(phone ? [phone] : []),
  ];
  const figures: Figure[] = [];
  for (const [theme, flags] of Object.entries(THEMES))
    figures.push(...(await benchTheme(origin, chromiumPath, pages, theme, flags)));
  return figures;
}

async function benchTheme(
  origin: string,
  chromiumPath: string,
  pages: { path: string; label: string }[],
  theme: string,
  themeFlags: readonly string[],
): Promise<Figure[]> {
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', ...themeFlags],
  });
  const figures: Figure[] = [];
  const light = theme === 'light';
  try {
    for (const { path: page, label } of pages) {
      const runs: Run[] = [];
      for (let i = 0; i < RUNS; i++)
        runs.push(await withRetry(() => runOnce(`${origin}${page}`, chrome.port)));
      const m = (key: keyof Run) => median(runs.map((r) => r[key]));
      const add = (name: string, value: number, unit: string, target?: Figure['target']) =>
        figures.push({
          section: light ? SECTION : `${SECTION}, dark theme`,
          name: `${label} ${name}`,
          value,
          unit,
          ...(target ? { target } : {}),
        });
      add('performance', m('performance'), '', { op: '>=', value: 98 });
      add('LCP', m('lcpSeconds'), 's', { op: '<=', value: 1.5 });
      add('CLS', m('cls'), '', { op: '<=', value: 0.02 });
      add('TBT', m('tbtMs'), 'ms');
      add('accessibility', m('accessibility'), '', { op: '>=', value: 98 });
      add('best practices', m('bestPractices'), '');
      add('SEO', m('seo'), '');
      if (page === '/' && light) {
        figures.push({
          section: 'Build budgets (first load, gzipped)',
          name: '/ total transfer with demo data',
          value: m('transferKb'),
          unit: 'KB',
          target: { op: '<=', value: 350 },
          note: "Lighthouse's total-byte-weight (mobile viewport), median of 3",
        });
      }
    }
  } finally {
    chrome.kill();
  }
  return figures;
}
