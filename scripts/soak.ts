/**
 * `npm run soak`: many simulated buyers (browse, wish-list, book, pay, race for one phone)
 * against a real server for a set time, then errors, latency and a reconciliation of orders,
 * payments and sold phones read from the database. Exits non-zero on any error or mismatch.
 *
 *   npm run soak -- --users 200 --duration 60
 *   npm run soak -- --database-url postgres://…     (or SOAK_DATABASE_URL): PostgreSQL
 *   npm run soak -- --url http://host:port [--database-url …]: a server already running
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/server/db/client';
import { ROOT, type ServerProcess, startServer } from './lib/server-process';
import { seedStock, soldBefore } from './lib/soak-catalog';
import { Http } from './lib/soak-http';
import { type Check, type Reconciliation, raceCheck, reconcile } from './lib/soak-reconcile';
import { type OperationSummary, SoakStats } from './lib/soak-stats';
import { type Ledger, RaceBoard, runUser } from './lib/soak-user';

const { values: args } = parseArgs({
  options: {
    users: { type: 'string', default: '200' },
    duration: { type: 'string', default: '60' },
    'database-url': { type: 'string' },
    url: { type: 'string' },
    'race-size': { type: 'string', default: '3' },
    ramp: { type: 'string' },
    'keep-data': { type: 'boolean', default: false },
  },
});

const positive = (name: string, value: string | undefined): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--${name} must be a whole number of at least 1`);
    process.exit(2);
  }
  return n;
};
const users = positive('users', args.users);
const durationS = positive('duration', args.duration);
const raceSize = positive('race-size', args['race-size']);
// Buyers arrive over the ramp, not all in one instant: sign-up hashes the password (scrypt),
// which is deliberately costly, so a burst of sign-ups is bounded by the machine's cores.
const rampS = args.ramp === undefined ? Math.min(30, durationS / 2) : Number(args.ramp);
if (!(rampS >= 0 && rampS < durationS)) {
  console.error('--ramp must be a number of seconds, at least 0 and less than --duration');
  process.exit(2);
}
const databaseUrl = args['database-url'] ?? process.env.SOAK_DATABASE_URL;
const runId = Date.now().toString(36);

let server: ServerProcess | null = null;
let dataDir: string | null = null;

async function cleanUp() {
  await server?.kill();
  if (dataDir && !args['keep-data']) await rm(dataDir, { recursive: true, force: true });
}
process.on('exit', () => server?.kill());
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the server and cleaning up`);
    void cleanUp().finally(() => process.exit(130));
  });
}

const fmt = (n: number) => n.toLocaleString('en-US');
const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;

type Results = {
  runId: string;
  startedAt: string;
  database: 'pglite' | 'postgres' | 'external';
  target: string;
  /** Other work on the machine skews latency: its cores and load average at start and end. */
  machine: { cpus: number; loadStart: number; loadEnd: number; node: string };
  users: number;
  durationS: number;
  rampS: number;
  wallS: number;
  stock: { listed: number; racePhones: number };
  requests: number;
  requestsPerS: number;
  errors: number;
  operations: OperationSummary[];
  errorsByKind: ReturnType<SoakStats['summary']>['errors'];
  ledger: { acknowledged: number; refunded: number; acknowledgedCents: number };
  races: { started: number; contested: number; refunded: number };
  serverStop: string;
  reconciliation: (Reconciliation & { skipped?: string }) | null;
  checks: Check[];
  mismatches: number;
  passed: boolean;
};

function markdown(r: Results): string {
  const lines = [
    `# Soak test: ${r.passed ? 'PASSED' : 'FAILED'}`,
    '',
    `- run ${r.runId}, started ${r.startedAt}, database **${r.database}** (${r.target})`,
    `- machine: ${r.machine.cpus} cores, load average ${r.machine.loadStart} at start and ${r.machine.loadEnd} at end, Node ${r.machine.node}`,
    `- ${r.users} users for ${r.durationS} s, arriving over the first ${r.rampS} s (wall ${r.wallS.toFixed(1)} s); ${fmt(r.stock.listed)} phones listed for it (${r.stock.racePhones} kept for races)`,
    `- **${fmt(r.requests)} requests** (${r.requestsPerS.toFixed(1)}/s), **${r.errors} errors**, **${r.mismatches} mismatches**`,
    `- payments acknowledged to buyers: ${r.ledger.acknowledged} (${money(r.ledger.acknowledgedCents)}); buyers refunded because another bought the phone first: ${r.ledger.refunded} (${r.races.refunded} in deliberate races); races: ${r.races.started} started, ${r.races.contested} contested`,
    `- server stop: ${r.serverStop}`,
    '',
    '## Operations',
    '',
    '| operation | count | p50 ms | p95 ms | p99 ms | max ms | after ramp: p95 / p99 / max | outcomes |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    ...r.operations.map(
      (o) =>
        `| ${o.operation} | ${fmt(o.count)} | ${o.p50} | ${o.p95} | ${o.p99} | ${o.max} | ${o.p95AfterRamp} / ${o.p99AfterRamp} / ${o.maxAfterRamp} | ${Object.entries(
          o.outcomes,
        )
          .map(([k, v]) => `${k} ${fmt(v)}`)
          .join(', ')} |`,
    ),
    '',
    '## Errors',
    '',
    ...(r.errorsByKind.length === 0
      ? ['none']
      : r.errorsByKind.map(
          (e) =>
            `- ${e.kind} \`${e.key}\` × ${e.count}: ${e.samples.map((s) => `\`${s}\``).join('; ')}`,
        )),
    '',
    '## Reconciliation',
    '',
    ...(r.reconciliation?.skipped ? [`skipped: ${r.reconciliation.skipped}`, ''] : []),
    ...(r.reconciliation && !r.reconciliation.skipped
      ? [
          `payments ${r.reconciliation.totals.payments} (${money(r.reconciliation.totals.paymentsCents)}), paid orders ${r.reconciliation.totals.paidOrders} (${money(r.reconciliation.totals.paidOrdersCents)}), phones sold during the soak ${r.reconciliation.totals.soldDuringSoak}, refunded intents ${r.reconciliation.totals.refundedIntents}`,
          '',
        ]
      : []),
    ...r.checks.map((c) => `- ${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`),
    '',
  ];
  return lines.join('\n');
}

async function main(): Promise<number> {
  const startedAt = new Date().toISOString();
  const loadStart = os.loadavg()[0] ?? 0;
  let base: string;
  let database: Results['database'];
  if (args.url) {
    base = args.url.replace(/\/$/, '');
    database = 'external';
  } else {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'soak-'));
    database = databaseUrl ? 'postgres' : 'pglite';
    console.info(`Starting the server (${database}, data in ${dataDir})…`);
    server = await startServer({
      dataDir,
      databaseUrl,
      // Hundreds of simulated people sign up from this one address: lift the per-address limits.
      env: {
        SEED_DEMO: '1',
        SIGN_UPS_PER_ADDRESS: '1000000',
        SIGN_UPS_IN_ALL: '1000000',
        IDENTITY_RATE_LIMIT: '0',
      },
      startTimeoutMs: 120_000,
    });
    base = server.url;
  }

  // Stock: about one phone per buyer per 20 s of soak, and a pool for the races.
  const phones = Math.max(300, Math.ceil((users * durationS) / 20));
  const racePhones = Math.max(50, Math.ceil((users * durationS) / 60));
  console.info(`Listing ${phones + racePhones} phones through the seller API at ${base}…`);
  const setupStats = new SoakStats();
  const setup = new Http(base, setupStats);
  const setupFailed = () => {
    console.error('Setting up the stock failed:');
    for (const e of setupStats.summary().errors)
      console.error(`  ${e.key} × ${e.count}: ${e.samples[0]}`);
    return 1;
  };
  let stock: Awaited<ReturnType<typeof seedStock>>;
  let before: Set<string>;
  try {
    stock = await seedStock(setup, runId, { phones, racePhones });
    before = await soldBefore(setup);
  } catch (err) {
    console.error((err as Error).message);
    return setupFailed();
  }
  if (setupStats.errorCount > 0) return setupFailed();

  const stats = new SoakStats();
  // A minute before a call counts as failed: sign-ups queue for the password hash under load.
  const http = new Http(base, stats, 60_000);
  const ledger: Ledger = { acknowledged: [], refunded: [] };
  const racePhoneCount = stock.racePool.length;
  const races = new RaceBoard(stock.racePool, raceSize);
  const started = Date.now();
  const deadline = started + durationS * 1000;
  const rampMs = rampS * 1000;
  console.info(`Running ${users} users for ${durationS} s (arriving over ${rampS} s)…`);
  const progress = setInterval(() => {
    const s = Math.round((Date.now() - started) / 1000);
    console.info(
      `  ${s} s: ${fmt(stats.requestCount)} requests, ${stats.errorCount} errors, ${ledger.acknowledged.length} payments`,
    );
  }, 10_000);
  await Promise.all(
    Array.from({ length: users }, async (_, i) => {
      await new Promise((r) => setTimeout(r, (i * rampMs) / users));
      await runUser(
        {
          http,
          runId,
          deadline,
          ledger,
          races,
          raceChance: 0.1,
          raceSeller: stock.raceSeller,
          thinkMs: [400, 1200],
        },
        i,
      );
    }),
  );
  clearInterval(progress);
  const wallS = (Date.now() - started) / 1000;

  let serverStop = 'not ours (--url)';
  if (server) {
    const code = await server.stop();
    serverStop = code === 0 ? 'graceful (SIGTERM, exit 0)' : `exit code ${code}`;
    const errorLines = server
      .output()
      .split('\n')
      .filter((l) => /"level":(50|60)/.test(l) || /^(Error|TypeError|Unhandled)/.test(l));
    for (const line of errorLines) stats.error('server-error', 'server log', line);
    if (code !== 0) {
      stats.error(
        'server-error',
        'server stop',
        `exit code ${code}: ${server.output().split('\n').slice(-10).join(' | ')}`,
      );
    }
  }

  let reconciliation: Results['reconciliation'] = null;
  const checks: Check[] = [];
  const dbOptions = databaseUrl
    ? { url: databaseUrl }
    : dataDir && !args.url
      ? { dataDir: path.join(dataDir, 'db') }
      : null;
  if (dbOptions) {
    const db = await openDatabase(dbOptions);
    try {
      reconciliation = await reconcile(db.db, { runId, ledger, soldBefore: before });
      checks.push(...reconciliation.checks);
    } finally {
      await db.close();
    }
  } else {
    reconciliation = {
      skipped: 'a server given by --url without --database-url',
      checks: [],
      totals: {
        payments: 0,
        paymentsCents: 0,
        paidOrders: 0,
        paidOrdersCents: 0,
        soldDuringSoak: 0,
        refundedIntents: 0,
      },
    };
  }
  const raced = raceCheck(races.races);
  checks.push(raced);

  const summary = stats.summary(started + rampMs);
  const mismatches = checks.filter((c) => !c.ok).length;
  const results: Results = {
    runId,
    startedAt,
    database,
    target: args.url
      ? base
      : databaseUrl
        ? databaseUrl.replace(/\/\/[^@/]*@/, '//***@')
        : 'temporary DATA_DIR',
    machine: {
      cpus: os.cpus().length,
      loadStart: Math.round(loadStart * 100) / 100,
      loadEnd: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
      node: process.version,
    },
    users,
    durationS,
    rampS,
    wallS,
    stock: { listed: stock.listed, racePhones: racePhoneCount },
    requests: stats.requestCount,
    requestsPerS: stats.requestCount / wallS,
    errors: stats.errorCount,
    operations: summary.operations,
    errorsByKind: summary.errors,
    ledger: {
      acknowledged: ledger.acknowledged.length,
      refunded: ledger.refunded.length,
      acknowledgedCents: ledger.acknowledged.reduce((n, a) => n + a.priceCents, 0),
    },
    races: { started: races.races.length, contested: raced.contested, refunded: raced.refunded },
    serverStop,
    reconciliation,
    checks,
    mismatches,
    passed: stats.errorCount === 0 && mismatches === 0,
  };
  const report = markdown(results);
  console.info(`\n${report}`);
  const outDir = path.join(ROOT, 'soak-results');
  await mkdir(outDir, { recursive: true });
  await writeFile(path.join(outDir, 'latest.md'), report);
  await writeFile(path.join(outDir, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.info(`Written to soak-results/latest.md and latest.json`);
  return results.passed ? 0 : 1;
}

main()
  .then(async (code) => {
    await cleanUp();
    process.exit(code);
  })
  .catch(async (err) => {
    console.error(err);
    if (server) console.error(server.output().split('\n').slice(-20).join('\n'));
    await cleanUp();
    process.exit(1);
  });
