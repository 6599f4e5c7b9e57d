/** Counts, outcomes and latencies per operation, and errors by kind, for the soak test. */

export type ErrorKind = 'server-error' | 'rate-limited' | 'network' | 'unexpected' | 'unavailable';

type OperationStats = {
  latencies: number[];
  /** When each call ended (ms since the epoch), parallel to `latencies`. */
  endedAt: number[];
  outcomes: Map<string, number>;
};

export type OperationSummary = {
  operation: string;
  count: number;
  outcomes: Record<string, number>;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Of the calls that ended after the ramp (every buyer arrived): sign-up bursts left out. */
  p95AfterRamp: number;
  p99AfterRamp: number;
  maxAfterRamp: number;
};

export type ErrorSummary = { kind: ErrorKind; key: string; count: number; samples: string[] };

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? 0;
}

export class SoakStats {
  private readonly operations = new Map<string, OperationStats>();
  private readonly errors = new Map<string, ErrorSummary>();

  record(operation: string, latencyMs: number, outcome: string): void {
    let stats = this.operations.get(operation);
    if (!stats) {
      stats = { latencies: [], endedAt: [], outcomes: new Map() };
      this.operations.set(operation, stats);
    }
    stats.latencies.push(latencyMs);
    stats.endedAt.push(Date.now());
    stats.outcomes.set(outcome, (stats.outcomes.get(outcome) ?? 0) + 1);
  }

  error(kind: ErrorKind, operation: string, detail: string, status?: number): void {
    const key = `${operation} ${status ?? kind}`;
    let summary = this.errors.get(key);
    if (!summary) {
      summary = { kind, key, count: 0, samples: [] };
      this.errors.set(key, summary);
    }
    summary.count++;
    if (summary.samples.length < 5) summary.samples.push(detail.slice(0, 500));
  }

  get errorCount(): number {
    let n = 0;
    for (const e of this.errors.values()) n += e.count;
    return n;
  }

  get requestCount(): number {
    let n = 0;
    for (const s of this.operations.values()) n += s.latencies.length;
    return n;
  }

  summary(rampEnd = 0): { operations: OperationSummary[]; errors: ErrorSummary[] } {
    const operations = [...this.operations.entries()].map(([operation, s]) => {
      const sorted = [...s.latencies].sort((a, b) => a - b);
      const round = (n: number) => Math.round(n * 10) / 10;
      const afterRamp = s.latencies
        .filter((_, i) => (s.endedAt[i] ?? 0) >= rampEnd)
        .sort((a, b) => a - b);
      return {
        operation,
        count: sorted.length,
        outcomes: Object.fromEntries(s.outcomes),
        p50: round(percentile(sorted, 50)),
        p95: round(percentile(sorted, 95)),
        p99: round(percentile(sorted, 99)),
        max: round(sorted.at(-1) ?? 0),
        p95AfterRamp: round(percentile(afterRamp, 95)),
        p99AfterRamp: round(percentile(afterRamp, 99)),
        maxAfterRamp: round(afterRamp.at(-1) ?? 0),
      };
    });
    return { operations, errors: [...this.errors.values()].sort((a, b) => b.count - a.count) };
  }
}
