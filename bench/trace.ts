/**
 * The long tasks of one page load, and what each is made of (issue 23): the trace behind the
 * bench's blocking-time figures, for finding where the main thread's time goes rather than
 * guessing. Not a figure of the bench (Lighthouse's own figures are); a tool to run by hand:
 *
 *   npx tsx bench/trace.ts [--cpu=4] [--runs=3] [--min=10] /category/01 /signin /product/:id …
 *
 * Starts the server on the demo data (the built client: `npm run build` first), loads each path
 * in Chromium with the CPU slowed `--cpu` times (4 is Lighthouse's mobile slowdown) and no
 * network throttling, records a Chromium trace from navigation until the page has been idle
 * for a second after load, and prints every main-thread task over `--min` ms after the first
 * contentful paint: its length, what it would add to Total Blocking Time (the part over
 * 50 ms), and its top-level work by kind (a module's evaluation names the module's file).
 */
import { chromium } from 'playwright';
import { withAppServer } from './lib/app-server';
import { option, type TraceEvent } from './lib/trace-events';
import { publicPages } from './lighthouse';

const CPU = option('cpu', 4);
const RUNS = option('runs', 3);
const MIN_MS = option('min', 10);
const paths = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'v8',
  'loading',
  'blink.user_timing',
  'toplevel',
].join(',');

/** A short name for one piece of a task's work. */
function kindOf(event: TraceEvent): string {
  const url = event.args?.data?.url;
  const file = url ? (new URL(url, 'http://x').pathname.split('/').pop() ?? url) : '';
  switch (event.name) {
    case 'EvaluateScript':
    case 'v8.evaluateModule':
      return `evaluate ${file || '(module)'}`;
    case 'FunctionCall':
      return `call ${file}${event.args?.data?.functionName ? ` ${event.args.data.functionName}` : ''}`;
    case 'v8.compileModule':
    case 'v8.compile':
    case 'CompileScript':
      return `compile ${file}`;
    default:
      return event.name;
  }
}

/** Work a task is made of; the outermost of these inside a task are its parts. */
const WORK = new Set([
  'EvaluateScript',
  'v8.evaluateModule',
  'FunctionCall',
  'v8.compile',
  'v8.compileModule',
  'CompileScript',
  'ParseHTML',
  'UpdateLayoutTree',
  'Layout',
  'Paint',
  'PrePaint',
  'Commit',
  'Layerize',
  'TimerFire',
  'FireAnimationFrame',
  'EventDispatch',
  'RunMicrotasks',
  'MajorGC',
  'MinorGC',
  'V8.GC_SCAVENGER',
  'BlinkGC.AtomicPhase',
  'ParseAuthorStyleSheet',
  'ScheduleStyleRecalculation',
  'HitTest',
]);

const isTask = (e: TraceEvent) =>
  e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask');

function analyse(events: TraceEvent[]) {
  // The page's renderer: the process that painted its first content (the navigation from
  // about:blank may have changed process).
  const fcpEvent = events.find((e) => e.name === 'firstContentfulPaint');
  if (!fcpEvent) throw new Error('no first contentful paint in the trace');
  const mainThread = events.find(
    (e) => e.name === 'thread_name' && e.pid === fcpEvent.pid && e.args?.name === 'CrRendererMain',
  );
  if (!mainThread) throw new Error('no renderer main thread in the trace');
  const onMain = events.filter((e) => e.pid === mainThread.pid && e.tid === mainThread.tid);
  const fcp = fcpEvent.ts;
  // Outermost tasks only (ThreadControllerImpl::RunTask wraps RunTask).
  const tasks = onMain.filter(isTask).sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const outer: TraceEvent[] = [];
  for (const task of tasks) {
    const last = outer.at(-1);
    if (last && task.ts < last.ts + (last.dur ?? 0)) continue;
    outer.push(task);
  }
  const work = onMain.filter((e) => e.ph === 'X' && WORK.has(e.name)).sort((a, b) => a.ts - b.ts);
  const long = [];
  for (const task of outer) {
    const ms = (task.dur ?? 0) / 1000;
    if (ms < MIN_MS || task.ts < fcp) continue;
    const end = task.ts + (task.dur ?? 0);
    const parts = new Map<string, number>();
    let reached = task.ts;
    for (const e of work) {
      if (e.ts < reached || e.ts >= end) continue;
      const dur = Math.min(e.dur ?? 0, end - e.ts);
      parts.set(kindOf(e), (parts.get(kindOf(e)) ?? 0) + dur / 1000);
      reached = e.ts + dur;
    }
    const named = [...parts.values()].reduce((a, b) => a + b, 0);
    if (ms - named > 0.5) parts.set('(other)', ms - named);
    long.push({
      at: (task.ts - fcp) / 1000,
      ms,
      blocking: Math.max(0, ms - 50),
      parts: [...parts].sort((a, b) => b[1] - a[1]).slice(0, 6),
    });
  }
  return long;
}

await withAppServer({ seedDemo: true }, async (origin) => {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    // `/product/:id` stands for the demo phone's page the Lighthouse bench measures.
    const phone = (await publicPages(origin)).find((p) => p.label === '/product/:id');
    for (const asked of paths) {
      const path = asked === '/product/:id' && phone ? phone.path : asked;
      for (let run = 1; run <= RUNS; run++) {
        const context = await browser.newContext({
          viewport: { width: 412, height: 823 },
          deviceScaleFactor: 1.75,
          isMobile: true,
        });
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
        await browser.startTracing(page, { categories: CATEGORIES.split(',') });
        await page.goto(`${origin}${path}`, { waitUntil: 'load' });
        await page.waitForTimeout(3000);
        const trace = JSON.parse((await browser.stopTracing()).toString()) as {
          traceEvents: TraceEvent[];
        };
        const long = analyse(trace.traceEvents);
        const tbt = long.reduce((sum, t) => sum + t.blocking, 0);
        console.info(
          `\n${path} run ${run} (CPU ×${CPU}): ${long.length} tasks ≥ ${MIN_MS} ms after FCP, blocking ${tbt.toFixed(0)} ms`,
        );
        for (const t of long) {
          const parts = t.parts.map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ');
          console.info(
            `  +${t.at.toFixed(0).padStart(5)} ms  ${t.ms.toFixed(1).padStart(6)} ms  ${parts}`,
          );
        }
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
});
