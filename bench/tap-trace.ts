/**
 * Where a tap's time goes (issue 36): the tap's Event Timing entries (each event's input delay,
 * processing and duration, the figures INP is made of) and the main thread's tasks around it from
 * a Chromium trace, each with its parts by kind. The tool behind decision 067; not a figure of the
 * bench (the interactions part's are). Run by hand:
 *
 *   npx tsx bench/tap-trace.ts [--cpu=4] [--runs=3] [--settle=500] booking|filters|tick|shown|send
 *
 * Starts the server on the demo data (the built client: `npm run build` first), signs a new buyer
 * in at phone size, and taps as the bench does: the target scrolled into view, `--settle` ms,
 * then the tap (`--settle=0` taps as Playwright's own `tap()` does, scrolling in the same moment).
 * `booking`: the first free Book Now on `/category/01`; `filters`: the Filters button on `/search`;
 * `tick`: the filters' 128 GB box on `/search`, the drawer opened first; `shown`: Show phones
 * after that tick; `send`: Send under Ask the seller on a phone for sale, a question typed first.
 */
import { chromium, type Locator, type Page } from 'playwright';
import { API_PASSWORD, createAccountViaApi } from '../tests/e2e/api';
import { withAppServer } from './lib/app-server';
import { option, type TraceEvent } from './lib/trace-events';

type Entry = { name: string; start: number; delay: number; processing: number; duration: number };

const CPU = option('cpu', 4);
const RUNS = option('runs', 3);
const SETTLE_MS = option('settle', 500);
const which = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 'booking';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PHONE = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
};

/** The search's filters: a drawer at phone size, opened from the list (a plain tap, not traced). */
const filtersDrawer = (page: Page) => page.getByRole('dialog', { name: 'Filters' });
const openFilters = async (page: Page) => {
  await page.getByRole('button', { name: /^Filters/ }).tap();
  await filtersDrawer(page).getByRole('checkbox').first().waitFor();
};
const box128 = (page: Page) =>
  filtersDrawer(page).getByRole('checkbox', { name: '128 GB', exact: true });

const TAPS: Record<
  string,
  {
    /** Where the tap is made, or how to find it (asked with the page's own session). */
    path: string | ((page: Page) => Promise<string>);
    target: (page: Page) => Locator;
    before?: (page: Page) => Promise<void>;
  }
> = {
  booking: {
    path: '/category/01',
    target: (page) =>
      page.getByRole('main').getByRole('button', { name: 'Book Now', disabled: false }).first(),
  },
  filters: {
    path: '/search',
    target: (page) => page.getByRole('button', { name: /^Filters/ }),
  },
  shown: {
    path: '/search',
    before: async (page) => {
      await openFilters(page);
      await box128(page).tap();
      await page.waitForURL(/storage=/);
      await page.waitForTimeout(1000);
    },
    target: (page) => filtersDrawer(page).getByRole('button', { name: 'Show phones' }),
  },
  send: {
    path: async (page) => {
      const found = (await (await page.request.get('/api/search')).json()) as {
        products: { _id: string }[];
      };
      return `/product/${found.products[0]?._id}`;
    },
    before: async (page) => {
      const ask = page.getByRole('region', { name: 'Ask the seller' });
      await ask.getByLabel('Your message').fill(`Is it unlocked? (${Date.now()})`);
    },
    target: (page) =>
      page.getByRole('region', { name: 'Ask the seller' }).getByRole('button', { name: 'Send' }),
  },
  tick: {
    path: '/search',
    before: openFilters,
    target: box128,
  },
};

/** Work a task is made of, by kind; events and functions named by what they are. */
const PARTS = new Set([
  'EventDispatch',
  'FunctionCall',
  'HitTest',
  'UpdateLayoutTree',
  'Layout',
  'PrePaint',
  'Paint',
  'Layerize',
  'Commit',
  'RunMicrotasks',
  'TimerFire',
  'FireAnimationFrame',
  'MinorGC',
  'MajorGC',
]);
const partName = (e: TraceEvent) => {
  const data = e.args?.data;
  if (e.name === 'EventDispatch') return `event ${data?.type}`;
  if (e.name === 'FunctionCall') {
    const file = (data?.url ?? '').split('/').pop() || '(inline)';
    return `call ${data?.functionName || '(anonymous)'}@${file}:${data?.lineNumber ?? ''}`;
  }
  return e.name;
};

/** Every observed event with an interaction, from the page's first moment (an init script). */
function observeEvents() {
  const w = window as unknown as { __taps: Entry[] };
  w.__taps = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as PerformanceEventTiming[]) {
      w.__taps.push({
        name: e.name,
        start: e.startTime,
        delay: e.processingStart - e.startTime,
        processing: e.processingEnd - e.processingStart,
        duration: e.duration,
      });
    }
  }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
}

function printTasks(events: TraceEvent[]) {
  const main = events.find(
    (e) =>
      e.name === 'thread_name' &&
      e.args?.name === 'CrRendererMain' &&
      events.some((x) => x.pid === e.pid && x.name === 'EventDispatch'),
  );
  if (!main) throw new Error('no renderer main thread with events in the trace');
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
  const firstEvent = onMain
    .filter((e) => e.name === 'EventDispatch')
    .sort((a, b) => a.ts - b.ts)[0];
  if (!firstEvent) return;
  const tasks = onMain
    .filter((e) => e.name === 'ThreadControllerImpl::RunTask' && (e.dur ?? 0) >= 1000)
    .sort((a, b) => a.ts - b.ts);
  for (const task of tasks) {
    const end = task.ts + (task.dur ?? 0);
    const parts = new Map<string, number>();
    for (const e of onMain) {
      if (e === task || e.ts < task.ts || e.ts >= end || !PARTS.has(e.name)) continue;
      parts.set(partName(e), (parts.get(partName(e)) ?? 0) + (e.dur ?? 0) / 1000);
    }
    const top = [...parts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 7)
      .map(([k, v]) => `${k} ${v.toFixed(1)}`);
    console.info(
      `  task ${((task.ts - firstEvent.ts) / 1000).toFixed(0).padStart(5)} ms from the first event, ${((task.dur ?? 0) / 1000).toFixed(1)} ms: ${top.join(', ')}`,
    );
  }
}

const tap = TAPS[which];
if (!tap) throw new Error(`no tap named ${which}: ${Object.keys(TAPS).join(', ')}`);

await withAppServer({ seedDemo: true }, async (origin) => {
  const buyer = await createAccountViaApi(origin, 'user', 'tap-trace');
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  try {
    const context = await browser.newContext({ ...PHONE, baseURL: origin });
    await context.addInitScript(observeEvents);
    const signIn = await context.newPage();
    await signIn.goto('/signin');
    await signIn.getByLabel('Email').fill(buyer.email);
    await signIn.getByLabel('Password').fill(API_PASSWORD);
    await signIn.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
    await signIn.waitForURL((url) => !url.pathname.startsWith('/signin'));
    await signIn.close();
    for (let run = 1; run <= RUNS; run++) {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
      await page.goto(typeof tap.path === 'string' ? tap.path : await tap.path(page));
      await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
      await page.waitForTimeout(1500);
      await tap.before?.(page);
      const target = tap.target(page);
      if (SETTLE_MS > 0) {
        await target.scrollIntoViewIfNeeded();
        await page.waitForTimeout(SETTLE_MS);
      }
      await page.evaluate(() => {
        (window as unknown as { __taps: Entry[] }).__taps = [];
      });
      await browser.startTracing(page, {
        categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel'],
      });
      await target.tap();
      await page.waitForTimeout(500);
      const trace = JSON.parse((await browser.stopTracing()).toString()) as {
        traceEvents: TraceEvent[];
      };
      const entries = await page.evaluate(() => (window as unknown as { __taps: Entry[] }).__taps);
      const longest = Math.max(0, ...entries.map((e) => e.duration));
      console.info(`\n${which} run ${run} (CPU ×${CPU}): the tap's INP entry ${longest} ms`);
      for (const e of entries.filter((x) => !/enter|leave|capture/.test(x.name))) {
        console.info(
          `  ${e.name.padEnd(12)} delay ${e.delay.toFixed(0).padStart(3)} ms, processing ${e.processing.toFixed(0).padStart(3)} ms, duration ${e.duration} ms`,
        );
      }
      printTasks(trace.traceEvents);
      await page.close();
    }
  } finally {
    await browser.close();
  }
});
