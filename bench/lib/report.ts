/** Figures with their targets, and the two report files (`latest.md`, `latest.json`). */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

export type Comparison = '>=' | '<=' | '<';

export type Figure = {
  section: string;
  name: string;
  value: number | null;
  unit: string;
  /** Absent: reported for context, no target. */
  target?: { op: Comparison; value: number };
  /** A median's runs: the lowest and the highest of them (shown before the note). */
  spread?: { min: number; max: number; runs: number };
  note?: string;
};

export type Verdict = 'met' | 'missed' | 'info' | 'skipped';

export function verdictOf(f: Figure): Verdict {
  if (f.value === null) return 'skipped';
  if (!f.target) return 'info';
  const { op, value } = f.target;
  const ok = op === '>=' ? f.value >= value : op === '<=' ? f.value <= value : f.value < value;
  return ok ? 'met' : 'missed';
}

const round = (n: number) =>
  Number.isInteger(n) || Math.abs(n) >= 100
    ? n.toFixed(0)
    : Math.abs(n) >= 1
      ? n.toFixed(2)
      : n.toFixed(3);

export function formatValue(f: Figure): string {
  return f.value === null ? 'n/a' : `${round(f.value)}${f.unit ? ` ${f.unit}` : ''}`;
}

/** How far a missed figure is from its target, in the target's unit and as a share of it. */
function missBy(f: Figure): string {
  if (f.value === null || !f.target || verdictOf(f) !== 'missed') return '';
  const gap = Math.abs(f.value - f.target.value);
  const share =
    f.target.value === 0 ? '' : ` (${((gap / Math.abs(f.target.value)) * 100).toFixed(0)}%)`;
  return `by ${round(gap)}${f.unit ? ` ${f.unit}` : ''}${share}`;
}

/** The spread of a median, in the figure's unit: `min–max 94–99 of 5 runs`. */
export function spreadText(f: Figure): string {
  if (!f.spread) return '';
  const { min, max, runs } = f.spread;
  return `min–max ${round(min)}–${round(max)}${f.unit ? ` ${f.unit}` : ''} of ${runs} runs`;
}

const noteText = (f: Figure) => [spreadText(f), f.note].filter(Boolean).join('; ');

const targetText = (f: Figure) =>
  f.target ? `${f.target.op} ${round(f.target.value)}${f.unit ? ` ${f.unit}` : ''}` : '';

export type Report = {
  startedAt: string;
  durationSeconds: number;
  machine: { cpus: number; cpuModel: string; memoryGb: number; node: string; platform: string };
  figures: Figure[];
  notes: string[];
  /** Longer evidence after the notes (e.g. query plans), a heading and Markdown each. */
  appendix?: { title: string; markdown: string }[];
};

export function markdownOf(report: Report): string {
  const lines = [
    '# Performance bench: latest run',
    '',
    `Run ${report.startedAt}, took ${report.durationSeconds.toFixed(0)} s on ${report.machine.cpus} × ${report.machine.cpuModel}, ${report.machine.memoryGb.toFixed(0)} GB RAM, Node ${report.machine.node} (${report.machine.platform}). Written by \`npm run bench\`.`,
    '',
  ];
  const sections = [...new Set(report.figures.map((f) => f.section))];
  for (const section of sections) {
    lines.push(
      `## ${section}`,
      '',
      '| figure | value | target | verdict | note |',
      '|---|---|---|---|---|',
    );
    for (const f of report.figures.filter((x) => x.section === section)) {
      const verdict = verdictOf(f);
      const shown =
        verdict === 'missed' ? `missed ${missBy(f)}` : verdict === 'info' ? '' : verdict;
      lines.push(
        `| ${f.name} | ${formatValue(f)} | ${targetText(f)} | ${shown} | ${noteText(f)} |`,
      );
    }
    lines.push('');
  }
  if (report.notes.length) lines.push('## Notes', '', ...report.notes.map((n) => `- ${n}`), '');
  for (const { title, markdown } of report.appendix ?? [])
    lines.push(`## ${title}`, '', markdown, '');
  return lines.join('\n');
}

/** The console summary: every figure with a target, then a count of met and missed. */
export function summaryOf(report: Report): string {
  const withTarget = report.figures.filter((f) => f.target);
  const lines = withTarget.map((f) => {
    const v = verdictOf(f);
    const mark = v === 'met' ? 'ok  ' : v === 'missed' ? 'MISS' : 'skip';
    const spread = f.spread ? ` [${spreadText(f)}]` : '';
    return `${mark} ${f.section} · ${f.name}: ${formatValue(f)}${spread} (target ${targetText(f)})${v === 'missed' ? ` ${missBy(f)}` : ''}`;
  });
  const count = (v: Verdict) => withTarget.filter((f) => verdictOf(f) === v).length;
  lines.push(`bench: ${count('met')} met, ${count('missed')} missed, ${count('skipped')} skipped`);
  return lines.join('\n');
}

export async function writeReport(dir: string, report: Report, name = 'latest'): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(path.join(dir, `${name}.md`), markdownOf(report));
}

/** What a part of the bench gives beside its figures: notes and appendix sections. */
export type PartResult = {
  figures: Figure[];
  notes: string[];
  appendix: NonNullable<Report['appendix']>;
};
