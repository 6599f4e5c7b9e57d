/**
 * The database alone, for a public read (issue 23): the statements the server sends for one
 * request (recorded from the repository functions, see api-load.ts), run straight on the `pg`
 * driver under the load shape autocannon puts on the server: `connections` loops, each running
 * one request's statements one after another, again and again for `duration` seconds, through
 * a pg.Pool as the server's (same size, same connection options). Named statements stay named,
 * so PostgreSQL plans them once per connection as it does for the server; rows come back as
 * arrays with Drizzle's type parsers (dates and intervals left as text), as the server reads
 * them. Its own process, like the autocannon worker; prints a LoadResult as JSON.
 */
import pg from 'pg';

export type DriverStatement = {
  name: string | null;
  text: string;
  rowMode: 'array' | null;
  values: unknown[];
};

export type DriverLoadOptions = {
  databaseUrl: string;
  /** The pool's `options` (the server sets pg_trgm's threshold on every connection). */
  connectionOptions: string;
  poolSize: number;
  /** One request's statements, in order. */
  statements: DriverStatement[];
  connections: number;
  /** Seconds. */
  duration: number;
};

/** Drizzle's node-postgres parsers: these types stay text (drizzle-orm/node-postgres/session). */
const RAW_TYPES = new Set([
  pg.types.builtins.TIMESTAMPTZ,
  pg.types.builtins.TIMESTAMP,
  pg.types.builtins.DATE,
  pg.types.builtins.INTERVAL,
  1231,
  1115,
  1185,
  1187,
  1182,
]);
const types = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    RAW_TYPES.has(oid) ? (value: string) => value : pg.types.getTypeParser(oid, format),
};

const options = JSON.parse(process.argv[2] ?? '{}') as DriverLoadOptions;
const pool = new pg.Pool({
  connectionString: options.databaseUrl,
  max: options.poolSize,
  options: options.connectionOptions,
});
const configs = options.statements.map((s) => ({
  config: {
    text: s.text,
    ...(s.name ? { name: s.name } : {}),
    ...(s.rowMode ? { rowMode: s.rowMode } : {}),
    types,
  },
  values: s.values,
}));

const started = performance.now();
const deadline = started + options.duration * 1000;
const latencies: number[] = [];
let errors = 0;
const loop = async () => {
  while (performance.now() < deadline) {
    const t = performance.now();
    try {
      for (const { config, values } of configs) await pool.query(config as never, values);
      latencies.push(performance.now() - t);
    } catch {
      errors++;
    }
  }
};
await Promise.all(Array.from({ length: options.connections }, loop));
const elapsed = (performance.now() - started) / 1000;
await pool.end();
latencies.sort((a, b) => a - b);
const at = (q: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
process.stdout.write(
  JSON.stringify({
    requestsPerSecond: latencies.length / elapsed,
    p50: at(0.5),
    p99: at(0.99),
    non2xx: 0,
    errors,
    total: latencies.length,
  }),
);
