/**
 * Main-thread script work per public page, unthrottled (issue 23): the time the page's main
 * thread spends evaluating and compiling JavaScript from navigation until the page is idle, on
 * this machine's own CPU, with no CPU or network throttling. Far less noisy than TBT, which
 * counts only the part of each task over 50 ms after a 4× slowdown, so a small change in the
 * work moves it a lot.
 *
 * How: Lighthouse itself, with `throttlingMethod: 'provided'` (nothing throttled, nothing
 * simulated: its audits then report the trace's milliseconds as measured, multiplier 1) and
 * only two audits, on the same Chromium as the Lighthouse part:
 * - `mainthread-work-breakdown`: the page's main-thread tasks, by kind; the figure is its
 *   script evaluation plus script parse/compile;
 * - `bootup-time` (threshold 0 ms): the same tasks by the script they are attributed to, for
 *   the appendix's top scripts.
 * Chosen over a trace of our own (CDP Tracing, devtools.timeline) because Lighthouse's trace
 * processing (task nesting, self time, the kinds of work, attribution to a script's URL) is the
 * very one behind the TBT and the bootup-time figures the issue quotes, and its navigation
 * waits until the page is idle (network and main thread quiet for a second after load): a
 * figure of ours would be a second, disagreeing account of the same trace.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import lighthouse, { type Config } from 'lighthouse';
import { browserVersion, launchChrome } from './lib/chrome';
import type { Figure, PartResult } from './lib/report';
import { median, spreadOf } from './lib/stats';
import { type Page, publicPages, withRetry } from './lighthouse';

export const MAIN_THREAD_RUNS = 5;
const TARGET_MS = 150;
const TOP_SCRIPTS = 5;
const SECTION = `Main-thread script evaluation + compile, unthrottled (median of ${MAIN_THREAD_RUNS})`;

const CONFIG: Config = {
  extends: 'lighthouse:default',
  settings: {
    onlyAudits: ['mainthread-work-breakdown', 'bootup-time'],
    throttlingMethod: 'provided',
  },
  // Every script, however little it takes (the default shows only those over 50 ms).
  audits: [{ path: 'bootup-time', options: { thresholdInMs: 0 } }],
};

/** Lighthouse's kinds of main-thread work (core/lib/tracehouse/task-groups.js). */
const GROUPS = [
  'scriptEvaluation',
  'scriptParseCompile',
  'styleLayout',
  'paintCompositeRender',
  'parseHTML',
  'garbageCollection',
  'other',
] as const;
type Group = (typeof GROUPS)[number];

type ScriptTime = { total: number; scripting: number; scriptParseCompile: number };
type Run = { groups: Record<Group, number>; scripts: Map<string, ScriptTime> };

type Items<T> = { details?: { items?: T[] } } | undefined;

export async function mainThreadRun(url: string, port: number, origin: string): Promise<Run> {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error' }, CONFIG);
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { audits, runtimeError } = result.lhr;
  if (runtimeError)
    throw new Error(`Lighthouse on ${url}: ${runtimeError.code} ${runtimeError.message}`);
  const breakdown = audits['mainthread-work-breakdown'] as Items<{
    group: Group;
    duration: number;
  }>;
  const bootup = audits['bootup-time'] as Items<ScriptTime & { url: string }>;
  if (!breakdown?.details?.items || !bootup?.details?.items) {
    const why = [audits['mainthread-work-breakdown'], audits['bootup-time']]
      .map((a) => a?.errorMessage)
      .filter(Boolean)
      .join('; ');
    throw new Error(`Lighthouse on ${url}: no main-thread breakdown${why ? ` (${why})` : ''}`);
  }
  const groups = Object.fromEntries(GROUPS.map((g) => [g, 0])) as Record<Group, number>;
  for (const { group, duration } of breakdown.details.items)
    groups[group] = (groups[group] ?? 0) + duration;
  const scripts = new Map<string, ScriptTime>();
  for (const { url: script, total, scripting, scriptParseCompile } of bootup.details.items) {
    const key = script.startsWith(origin) ? script.slice(origin.length) : script;
    scripts.set(key, { total, scripting, scriptParseCompile });
  }
  return { groups, scripts };
}

/** Vite's manifest: a built file's source module, where it has one (entries, lazy chunks). */
function sourcesOf(clientDir: string): Map<string, string> {
  try {
    const manifest = JSON.parse(
      readFileSync(path.join(clientDir, '.vite/manifest.json'), 'utf8'),
    ) as Record<string, { file: string; src?: string }>;
    return new Map(
      Object.values(manifest)
        .filter((chunk) => chunk.src)
        .map((chunk) => [`/${chunk.file}`, chunk.src as string]),
    );
  } catch {
    return new Map();
  }
}

const ms = (n: number) => n.toFixed(0);

export async function benchMainThread(
  origin: string,
  chromiumPath: string,
  clientDir: string,
): Promise<PartResult> {
  const pages = await publicPages(origin);
  const sources = sourcesOf(clientDir);
  const figures: Figure[] = [];
  const sections: string[] = [];
  const chrome = await launchChrome(chromiumPath);
  let chromium = 'unknown';
  try {
    chromium = await browserVersion(chrome.port);
    for (const page of pages) {
      const runs: Run[] = [];
      for (let i = 0; i < MAIN_THREAD_RUNS; i++)
        runs.push(
          await withRetry(() => mainThreadRun(`${origin}${page.path}`, chrome.port, origin)),
        );
      const { figure, markdown } = summarise(page, runs, sources);
      console.info(`bench: ${page.label}: script evaluation + compile ${ms(figure.value ?? 0)} ms`);
      figures.push(figure);
      sections.push(markdown);
    }
  } finally {
    chrome.kill();
  }
  return {
    figures,
    notes: [
      `Main-thread script evaluation: Lighthouse with throttlingMethod 'provided' (no CPU or network throttling, mobile screen), audits mainthread-work-breakdown and bootup-time, ${MAIN_THREAD_RUNS} loads a page, on ${chromium}; from navigation until the page is idle (network and main thread quiet for 1 s after load).`,
    ],
    appendix: [
      {
        title: `Main-thread work per page, unthrottled (median ms of ${MAIN_THREAD_RUNS} loads)`,
        markdown: [
          `What Lighthouse's trace attributes the main thread's time to, on ${chromium} with no throttling. "Top scripts": bootup-time's attribution of every task to the script it ran in (the page's URL: its inline scripts and the HTML parser; "Unattributable": work no script is named for), each script's total main-thread time (of which evaluation and parse/compile).`,
          '',
          ...sections,
        ].join('\n'),
      },
    ],
  };
}

function summarise(
  page: Page,
  runs: Run[],
  sources: Map<string, string>,
): { figure: Figure; markdown: string } {
  const scriptMs = runs.map((r) => r.groups.scriptEvaluation + r.groups.scriptParseCompile);
  const groupMedian = (g: Group) => median(runs.map((r) => r.groups[g]));
  const totalMs = median(runs.map((r) => GROUPS.reduce((sum, g) => sum + r.groups[g], 0)));
  const figure: Figure = {
    section: SECTION,
    name: `${page.label} script evaluation + compile`,
    value: median(scriptMs),
    unit: 'ms',
    target: { op: '<=', value: TARGET_MS },
    spread: spreadOf(scriptMs),
    note: `evaluation ${ms(groupMedian('scriptEvaluation'))} ms, parse/compile ${ms(groupMedian('scriptParseCompile'))} ms; all main-thread work ${ms(totalMs)} ms`,
  };
  // Each script's median over the runs (a script a run did not attribute counts 0 there).
  const urls = new Set(runs.flatMap((r) => [...r.scripts.keys()]));
  const scriptMedian = (url: string, key: keyof ScriptTime) =>
    median(runs.map((r) => r.scripts.get(url)?.[key] ?? 0));
  const top = [...urls]
    .map((url) => ({
      url,
      total: scriptMedian(url, 'total'),
      scripting: scriptMedian(url, 'scripting'),
      parse: scriptMedian(url, 'scriptParseCompile'),
    }))
    .sort((a, b) => b.total - a.total)
    .slice(0, TOP_SCRIPTS);
  const byKind = GROUPS.map((g) => `${g} ${ms(groupMedian(g))}`).join(', ');
  const markdown = [
    `### ${page.label} (${page.path})`,
    '',
    `Script evaluation + compile ${ms(median(scriptMs))} ms (min–max ${ms(Math.min(...scriptMs))}–${ms(Math.max(...scriptMs))}); all main-thread work ${ms(totalMs)} ms: ${byKind}.`,
    '',
    '| script | source | main-thread ms | evaluation | parse/compile |',
    '|---|---|---|---|---|',
    ...top.map(
      (s) =>
        `| \`${s.url}\` | ${sources.get(s.url.split('?')[0] ?? s.url) ?? ''} | ${ms(s.total)} | ${ms(s.scripting)} | ${ms(s.parse)} |`,
    ),
    '',
  ].join('\n');
  return { figure, markdown };
}
