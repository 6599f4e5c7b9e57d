/**
 * `npm run soak`: many simulated buyers (browse, wish-list, book, pay, race for one phone, then
 * hand over, cancel, let expire or dispute each sale) against a real server for a set time, then
 * errors, latency and a reconciliation of orders, payments, their money, the processor's intents
 * and sold phones read from the database. Exits non-zero on any error or mismatch.
 *
 *   npm run soak -- --users 200 --duration 60
 *   npm run soak -- --database-url postgres://…     (or SOAK_DATABASE_URL): PostgreSQL
 *   npm run soak -- --url http://host:port [--database-url …]: a server already running
 *   npm run soak -- --hold 20 --timed-work-ms 1000: how long a hold lasts on the soak's server
 *   npm run soak -- --servers 2 [--kill-at 30]: N servers on one PostgreSQL (a throwaway one
 *     unless --database-url) and object storage behind haproxy; one is killed (SIGKILL) at
 *     --kill-at seconds (default: half the run) and started again 5 s later
 *   npm run soak -- --servers 2 --ha --kill-database primary,standby: the servers on a replicated
 *     PostgreSQL (Patroni's pair behind haproxy, decision 045) whose primary's, then standby's,
 *     postmaster is killed (SIGKILL) mid-run (the first at --kill-at); the servers ride through
 *   npm run soak -- --funds-hold 4 --payout-every 2 --account-hold 10: the sellers' money on the
 *     soak's server (seconds): the funds hold after a handover, the payout period, the hold after
 *     a change of payout account (issue 30)
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startPostgres } from '../bench/lib/postgres';
import { openDatabase } from '../src/server/db/client';
import { askRunningServer } from '../src/server/operator';
import { EmbeddedPaymentProvider } from '../src/server/payments/embedded-processor';
import { setAdmin } from '../src/server/repositories/users';
import { startS3Server } from '../tests/helpers/s3-server';
import { type Cluster, startCluster } from './lib/cluster';
import { freePort, ROOT, type ServerProcess, startServer } from './lib/server-process';
import { seedStock, soldBefore } from './lib/soak-catalog';
import {
  type DatabaseKill,
  parseDatabaseKills,
  type ReplicatedDatabase,
  scheduleDatabaseKills,
  standbyCaughtUp,
  startReplicatedDatabase,
} from './lib/soak-database-kills';
import { type Account, createAccount, Http, type Outage } from './lib/soak-http';
import {
  awaitPayoutsSettled,
  type PayoutSummaryRead,
  type SellerPayouts,
  setUpPayoutAccounts,
  switchPayoutAccounts,
} from './lib/soak-payouts';
import {
  type Check,
  emptyTotals,
  exercisedChecks,
  type Reconciliation,
  raceCheck,
  reconcile,
} from './lib/soak-reconcile';
import { type OperationSummary, SoakStats } from './lib/soak-stats';
import { type Ledger, RaceBoard, runUser, type SaleRecord } from './lib/soak-user';

const { values: args } = parseArgs({
  options: {
    users: { type: 'string', default: '200' },
    duration: { type: 'string', default: '60' },
    'database-url': { type: 'string' },
    url: { type: 'string' },
    'race-size': { type: 'string', default: '3' },
    ramp: { type: 'string' },
    hold: { type: 'string' },
    'timed-work-ms': { type: 'string', default: '1000' },
    'keep-data': { type: 'boolean', default: false },
    servers: { type: 'string', default: '1' },
    'kill-at': { type: 'string' },
    ha: { type: 'boolean', default: false },
    'kill-database': { type: 'string' },
    'funds-hold': { type: 'string', default: '4' },
    'payout-every': { type: 'string', default: '2' },
    'account-hold': { type: 'string', default: '10' },
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
// Holds last long enough for a handover at a person's pace under load, and short enough that
// the sales left alone expire within the run (the server's HOLD_DAYS, in seconds).
const holdS = positive('hold', args.hold ?? '20');
const timedWorkMs = positive('timed-work-ms', args['timed-work-ms']);
const servers = positive('servers', args.servers);
// The sellers' money on the soak's own server (issue 30), in seconds: short, so that within a
// minute shares become available, are paid out once a period, and a report comes after a payout.
const fundsHoldS = positive('funds-hold', args['funds-hold']);
const payoutEveryS = positive('payout-every', args['payout-every']);
const accountHoldS = positive('account-hold', args['account-hold']);
/** Payouts run on the soak's own server (with --url the server's schedule is not ours to know). */
const payoutsOurs = !args.url;
if (servers > 1 && args.url) {
  console.error('--servers starts servers of its own: leave out --url');
  process.exit(2);
}
const parsedKills = parseDatabaseKills(args['kill-database']);
if (typeof parsedKills === 'string') {
  console.error(parsedKills);
  process.exit(2);
}
const databaseKills: DatabaseKill[] = parsedKills;
if ((args.ha || databaseKills.length > 0) && (args.url || args['database-url'])) {
  console.error(
    '--ha starts a replicated PostgreSQL of its own: leave out --url and --database-url',
  );
  process.exit(2);
}
if (databaseKills.length > 0 && !args.ha) {
  console.error('--kill-database kills a node of the replicated PostgreSQL: add --ha');
  process.exit(2);
}
// Mid-run by default; 0 kills none. With database kills, the servers are not killed: the
// first database kill comes at --kill-at (by default spread evenly through the run).
const killAtS =
  servers > 1 || databaseKills.length > 0
    ? Number(
        args['kill-at'] ??
          (databaseKills.length > 0 ? durationS / (databaseKills.length + 1) : durationS / 2),
      )
    : 0;
if (!(killAtS >= 0 && killAtS < durationS)) {
  console.error('--kill-at must be a number of seconds, at least 0 and less than --duration');
  process.exit(2);
}
let databaseUrl = args['database-url'] ?? process.env.SOAK_DATABASE_URL;
// A server of our own has our hold; one given by --url only when --hold says what its hold is.
const expiries = !args.url || args.hold !== undefined;
const runId = Date.now().toString(36);

let server: ServerProcess | null = null;
let cluster: Cluster | null = null;
/** Started for a cluster and stopped at the end: PostgreSQL when none was given, the store. */
const alsoStop: (() => Promise<void> | void)[] = [];
/** When servers were killed, and what happened around each kill, for the report. */
const kills: number[] = [];
const killNotes: string[] = [];
let dataDir: string | null = null;
/** The replicated PostgreSQL of --ha, and when it was away. */
let replicated: ReplicatedDatabase | null = null;
const outages: Outage[] = [];

async function cleanUp() {
  await server?.kill();
  await Promise.all(cluster?.servers.map((s) => s.kill()) ?? []);
  await cluster?.balancer.stop();
  for (const stop of alsoStop.splice(0).reverse()) await stop();
  if (dataDir && !args['keep-data']) await rm(dataDir, { recursive: true, force: true });
}
process.on('exit', () => {
  void server?.kill();
  for (const s of cluster?.servers ?? []) void s.kill();
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the server and cleaning up`);
    void cleanUp().finally(() => process.exit(130));
  });
}

const fmt = (n: number) => n.toLocaleString('en-US');
const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const counted = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([k, v]) => `${k} ${fmt(v)}`)
    .join(', ') || 'none';
const tally = (keys: string[]) => {
  const counts: Record<string, number> = {};
  for (const k of keys) counts[k] = (counts[k] ?? 0) + 1;
  return counts;
};

type Results = {
  runId: string;
  startedAt: string;
  database: 'pglite' | 'postgres' | 'external';
  target: string;
  /** Servers behind the balancer (1: no balancer), what was killed, and the requests it cost. */
  cluster: {
    servers: number;
    /** One PostgreSQL, or Patroni's replicated pair (--ha). */
    replicated: boolean;
    kills: string[];
    inFlightAtKills: number;
    /** Failures in the database's outages, each asked again as a person would. */
    unavailable: Http['unavailable'];
  };
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
  ledger: { acknowledged: number; released: number; acknowledgedCents: number };
  /** The sellers' payout accounts and their periods (null: not the soak's server). */
  payouts: {
    fundsHoldS: number;
    payoutEveryS: number;
    accountHoldS: number;
    accounts: Record<string, number>;
    lateReports: number;
    settleS: number;
  } | null;
  races: { started: number; contested: number; released: number };
  sales: {
    holdS: number | null;
    timedWorkMs: number | null;
    admin: boolean;
    byFate: Record<string, number>;
    byStage: Record<string, number>;
    wrongCodes: number;
    expiredFirst: number;
    /** How long the end waited for the sales left alone to expire. */
    endingS: number;
  };
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
    `- payments acknowledged to buyers: ${r.ledger.acknowledged} (${money(r.ledger.acknowledgedCents)}); buyers whose hold was released because another bought the phone first: ${r.ledger.released} (${r.races.released} in deliberate races); races: ${r.races.started} started, ${r.races.contested} contested`,
    `- sales (hold ${r.sales.holdS ?? 'unknown'} s, timed work every ${r.sales.timedWorkMs ?? '?'} ms${r.sales.admin ? '' : ', no admin: no disputes'}): ${counted(r.sales.byFate)}; ended ${counted(r.sales.byStage)}; ${r.sales.wrongCodes} wrong codes refused; ${r.sales.expiredFirst} expired before the handover or cancel came; the end waited ${r.sales.endingS.toFixed(1)} s for the last holds to expire`,
    ...(r.cluster.servers > 1 || r.cluster.replicated
      ? [
          `- **${r.cluster.servers} servers behind haproxy** on ${r.cluster.replicated ? 'a replicated PostgreSQL (Patroni: a primary and a synchronous standby, found through haproxy)' : 'one PostgreSQL'}, photos in object storage; ${r.cluster.kills.join('; ') || 'nothing killed'}; **${r.cluster.inFlightAtKills} requests in flight at a server's kill** failed (counted apart, not as errors)${r.cluster.replicated ? `; while the database was away, **${r.cluster.unavailable['503']} answers were 503 and ${r.cluster.unavailable.network} broken connections**, each asked again after its Retry-After (${r.cluster.unavailable.gaveUp} still failing after a minute; the last ${(r.cluster.unavailable.lastAfterCloseMs / 1000).toFixed(1)} s after the site served again)` : ''}`,
        ]
      : []),
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
          `payments ${r.reconciliation.totals.payments} (${money(r.reconciliation.totals.paymentsCents)}), paid orders ${r.reconciliation.totals.paidOrders} (${money(r.reconciliation.totals.paidOrdersCents)}), phones sold during the soak ${r.reconciliation.totals.soldDuringSoak}`,
          '',
          `sales by stage: ${counted(r.reconciliation.totals.stages)}; money: ${counted(r.reconciliation.totals.money)}, captured ${money(r.reconciliation.totals.capturedCents)}; processor intents: ${counted(r.reconciliation.totals.intents)}, succeeded ${money(r.reconciliation.totals.succeededIntentsCents)}`,
          '',
        ]
      : []),
    ...(r.reconciliation && !r.reconciliation.skipped ? moneyLines(r) : []),
    ...r.checks.map((c) => `- ${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`),
    '',
  ];
  return lines.join('\n');
}

/** The sellers' money in the report (issue 30). */
function moneyLines(r: Results): string[] {
  const m = r.reconciliation?.totals.sellerMoney;
  if (!m) return [];
  const p = r.payouts;
  return [
    `sellers' money${p ? ` (funds hold ${p.fundsHoldS} s, payouts every ${p.payoutEveryS} s, ${p.accountHoldS} s hold after an account change; accounts: ${counted(p.accounts)}; ${p.lateReports} reports came late; the end waited ${p.settleS.toFixed(1)} s for the money to settle)` : ''}: fees ${money(m.feesCents)}; **payouts paid ${m.payoutsPaid}** (${money(m.payoutsPaidCents)}), **failed ${m.payoutsFailed}** (${counted(m.failedReasons)}), sending ${m.payoutsSending}; **refunds before payout ${m.refundsBeforePayout}, after payout ${m.refundsAfterPayout}** (${money(m.refundedCents)} back to cards); sellers' available balance negative at some point: ${m.negativeEver} (lowest ${money(m.lowestAvailableCents)}), at the end: ${m.negativeAtEnd}; account changes held ${m.accountChanges}, paid to the new account after the hold ${m.paidAfterHold}`,
    '',
    `at the end: paid out ${money(m.sellers.paid)}, available ${money(m.sellers.available)}, pending ${money(m.sellers.pending)}, frozen ${money(m.sellers.frozen)}, sending ${money(m.sellers.sending)}; completed sales' shares: ${m.completedShares.paidOut} paid out, ${m.completedShares.available} available, ${m.completedShares.pending} pending, ${m.completedShares.frozen} frozen`,
    '',
  ];
}

/**
 * An admin to decide reported problems, made the operator's way (`npm run admin -- grant`): by
 * the running server's operator socket on PGlite, in the database itself on PostgreSQL. Null for
 * a server given by --url without --database-url (no disputes then).
 */
async function makeAdmin(http: Http): Promise<Account | null> {
  if (args.url && !databaseUrl) return null;
  const email = `soak-${runId}-admin@soak.example`;
  const account = await createAccount(http, email, 'Soak Admin', 'user');
  if (!account) throw new Error(`could not create the admin ${email}`);
  const command = { command: 'grant' as const, email };
  if (databaseUrl) {
    const db = await openDatabase({ url: databaseUrl });
    try {
      await setAdmin(db.db, email, true);
    } finally {
      await db.close();
    }
  } else {
    const answer = await askRunningServer(dataDir as string, command);
    if (!answer?.ok) throw new Error(`could not make ${email} an admin: ${answer?.message}`);
  }
  return account;
}

/** Reads each sale as its buyer until it is no longer paid (its hold expired), or `until`. */
async function awaitEndings(http: Http, pending: SaleRecord[], until: number): Promise<void> {
  let waiting = pending;
  while (waiting.length > 0 && Date.now() < until) {
    const still: SaleRecord[] = [];
    const queue = [...waiting];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let sale = queue.shift(); sale; sale = queue.shift()) {
          const reply = await http.call('sale:buyer-reads-ending', `/api/orders/${sale.orderId}`, {
            token: sale.token,
            accept: (s) => (s === 200 ? 'read' : undefined),
          });
          const stage = (reply?.body as { stage?: SaleRecord['stage'] } | undefined)?.stage;
          if (!reply || !stage) continue;
          if (stage === 'paid') still.push(sale);
          else sale.stage = stage;
        }
      }),
    );
    waiting = still;
    if (waiting.length > 0) await new Promise((r) => setTimeout(r, 1000));
  }
}

/** What the soak's own servers run with. */
const serverEnv = () => ({
  SEED_DEMO: '1',
  // Hundreds of simulated people sign up from this one address: lift the per-address limits.
  SIGN_UPS_PER_ADDRESS: '1000000',
  SIGN_UPS_IN_ALL: '1000000',
  IDENTITY_RATE_LIMIT: '0',
  HOLD_DAYS: String(holdS / 86_400),
  TIMED_WORK_MS: String(timedWorkMs),
  // The sellers' money (issue 30), in seconds expressed as the server's hours.
  MARKETPLACE_FEE_PERCENT: '5',
  FUNDS_HOLD_HOURS: String(fundsHoldS / 3600),
  PAYOUT_SCHEDULE: `${payoutEveryS}s`,
  PAYOUT_ACCOUNT_HOLD_HOURS: String(accountHoldS / 3600),
});

/** Kills the last server at `killAtS` (SIGKILL: no drain, no goodbye), then starts it again. */
function scheduleKill(started: number): NodeJS.Timeout | null {
  const target = cluster;
  if (!target || killAtS <= 0) return null;
  const index = target.servers.length - 1;
  const timer = setTimeout(async () => {
    const killed = target.servers[index];
    if (!killed) return;
    kills.push(Date.now());
    const at = ((Date.now() - started) / 1000).toFixed(1);
    await killed.kill();
    console.info(`  killed server s${index + 1} at ${at} s; starting it again in 5 s`);
    await new Promise((r) => setTimeout(r, 5000));
    try {
      await target.restart(index);
      const back = ((Date.now() - started) / 1000).toFixed(1);
      killNotes.push(`s${index + 1} killed (SIGKILL) at ${at} s, back at ${back} s`);
    } catch (err) {
      killNotes.push(`s${index + 1} killed at ${at} s, did not start again: ${err}`);
    }
  }, killAtS * 1000);
  return timer;
}

async function main(): Promise<number> {
  const startedAt = new Date().toISOString();
  const loadStart = os.loadavg()[0] ?? 0;
  let base: string;
  let database: Results['database'];
  if (args.url) {
    base = args.url.replace(/\/$/, '');
    database = 'external';
  } else if (servers > 1 || args.ha) {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'soak-'));
    database = 'postgres';
    if (args.ha) {
      console.info('Starting a replicated PostgreSQL (etcd, two Patroni nodes, haproxy)…');
      replicated = await startReplicatedDatabase();
      alsoStop.push(replicated.stop);
      databaseUrl = replicated.url;
    }
    if (!databaseUrl) {
      const postgres = startPostgres({ port: await freePort() });
      if ('skipped' in postgres) throw new Error(`PostgreSQL: ${postgres.skipped}`);
      alsoStop.push(postgres.stop);
      databaseUrl = postgres.url;
    }
    const store = await startS3Server({ bucket: 'photos' });
    alsoStop.push(store.close);
    console.info(`Starting ${servers} servers behind haproxy (data in ${dataDir})…`);
    cluster = await startCluster({
      servers,
      databaseUrl,
      dataDir,
      env: { ...store.env, ...serverEnv() },
      startTimeoutMs: 240_000,
    });
    base = cluster.url;
  } else {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'soak-'));
    database = databaseUrl ? 'postgres' : 'pglite';
    console.info(`Starting the server (${database}, data in ${dataDir})…`);
    server = await startServer({
      dataDir,
      databaseUrl,
      // Hundreds of simulated people sign up from this one address: lift the per-address limits.
      env: serverEnv(),
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
  let admin: Account | null;
  let payoutAccounts: SellerPayouts[] = [];
  try {
    stock = await seedStock(setup, runId, { phones, racePhones });
    before = await soldBefore(setup);
    admin = await makeAdmin(setup);
    if (payoutsOurs) payoutAccounts = await setUpPayoutAccounts(setup, stock.sellers);
  } catch (err) {
    console.error((err as Error).message);
    return setupFailed();
  }
  if (setupStats.errorCount > 0) return setupFailed();

  const stats = new SoakStats();
  // A minute before a call counts as failed: sign-ups queue for the password hash under load.
  const http = new Http(base, stats, 60_000, kills, outages);
  const ledger: Ledger = { acknowledged: [], released: [], sales: [] };
  const racePhoneCount = stock.racePool.length;
  const races = new RaceBoard(stock.racePool, raceSize);
  const started = Date.now();
  const deadline = started + durationS * 1000;
  const rampMs = rampS * 1000;
  console.info(`Running ${users} users for ${durationS} s (arriving over ${rampS} s)…`);
  const killTimer = databaseKills.length > 0 ? null : scheduleKill(started);
  const databaseKilling =
    replicated && databaseKills.length > 0
      ? scheduleDatabaseKills({
          database: replicated,
          kills: databaseKills,
          site: base,
          started,
          firstAtMs: killAtS * 1000,
          gapMs: ((durationS - killAtS) * 1000) / databaseKills.length,
          outages,
          notes: killNotes,
        })
      : null;
  // A few sellers change their payout account mid-run, after the arrivals: their payouts wait.
  const switched = payoutsOurs
    ? new Promise<void>((resolve) =>
        setTimeout(
          () => void switchPayoutAccounts(http, payoutAccounts).finally(resolve),
          durationS * 500,
        ),
      )
    : Promise.resolve();
  const planOfSeller = new Map(payoutAccounts.map((p) => [p.account.email, p.plan]));
  // A late report comes past the funds hold, a payout period and a few rounds of the timed work.
  const lateReportMs = payoutsOurs
    ? (fundsHoldS + 2 * payoutEveryS) * 1000 + 3 * timedWorkMs
    : null;
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
          racePhones: stock.racePhones,
          thinkMs: [400, 1200],
          sales: {
            sellerOf: stock.sellerOf,
            admin,
            expiries,
            lateReportMs,
            paysOut: (productId) => {
              const seller = stock.sellerOf.get(productId);
              return seller !== undefined && planOfSeller.get(seller.email) === 'paying';
            },
          },
        },
        i,
      );
    }),
  );
  await switched;
  clearInterval(progress);
  if (killTimer) clearTimeout(killTimer);
  const wallS = (Date.now() - started) / 1000;
  const killChecks =
    (await databaseKilling?.done.catch((err: Error) => [
      { name: 'the database kills ran', ok: false, detail: err.message },
    ])) ?? [];

  // The sales left alone (or reached too late) must expire: read each as its buyer until it has.
  const endingStarted = Date.now();
  let holdsDueBefore: Date | null = null;
  if (expiries) {
    const pending = ledger.sales.filter((s) => s.stage === null);
    console.info(`Waiting for ${pending.length} sales left alone to expire (hold ${holdS} s)…`);
    await awaitEndings(http, pending, endingStarted + (holdS + 60) * 1000 + 20 * timedWorkMs);
    // Then a few more rounds of the timed work, so any money step still under way finishes.
    await new Promise((r) => setTimeout(r, 3 * timedWorkMs));
    holdsDueBefore = new Date(Date.now() - 3 * timedWorkMs);
  }
  const endingS = (Date.now() - endingStarted) / 1000;

  // The sellers' money settles: every funds hold released, no payout sending, no account on hold
  // with money to pay; then one more payout period. Each seller's figures are read as they see them.
  const settleStarted = Date.now();
  let sellerFigures: Map<string, PayoutSummaryRead> | undefined;
  let fundsDueBefore: Date | null = null;
  if (payoutsOurs) {
    console.info("Waiting for the sellers' money to settle (funds holds, payouts)…");
    sellerFigures = await awaitPayoutsSettled(http, payoutAccounts, {
      until: settleStarted + (fundsHoldS + accountHoldS + 60) * 1000,
      periodMs: payoutEveryS * 1000 + 2 * timedWorkMs,
    });
    fundsDueBefore = new Date(Date.now() - 2 * timedWorkMs);
  }
  const settleS = (Date.now() - settleStarted) / 1000;

  let serverStop = 'not ours (--url)';
  if (cluster) {
    const codes = await Promise.all(cluster.servers.map((s) => s.stop()));
    serverStop = codes.every((c) => c === 0)
      ? `graceful, all ${codes.length} (SIGTERM, exit 0)`
      : `exit codes ${codes.join(', ')}`;
    await mkdir(path.join(ROOT, 'soak-results'), { recursive: true });
    for (const [i, s] of cluster.servers.entries()) {
      // The tail of each server's log beside the report, for whoever reads a failure.
      await writeFile(path.join(ROOT, 'soak-results', `server-s${i + 1}.log`), s.output());
      const errorLines = s
        .output()
        .split('\n')
        .filter((l) => /"level":(50|60)/.test(l) || /^(Error|TypeError|Unhandled)/.test(l));
      for (const line of errorLines) stats.error('server-error', `server s${i + 1} log`, line);
    }
    await cluster.balancer.stop();
    if (codes.some((c) => c !== 0)) stats.error('server-error', 'server stop', serverStop);
  }
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
      reconciliation = await reconcile(db.db, {
        runId,
        ledger,
        soldBefore: before,
        holdsDueBefore,
        // The soak's own servers use the embedded processor: its intents are in the database.
        provider: args.url ? undefined : new EmbeddedPaymentProvider(db.db),
        fundsDueBefore,
        sellerFigures,
        payoutAccounts,
      });
      checks.push(...reconciliation.checks);
      checks.push(
        ...(await exercisedChecks(db.db, {
          ledger,
          totals: reconciliation.totals,
          expiries,
          disputes: admin !== null,
          payouts: payoutsOurs,
        })),
      );
    } finally {
      await db.close();
    }
  } else {
    reconciliation = {
      skipped: 'a server given by --url without --database-url',
      checks: [],
      totals: emptyTotals(),
    };
  }
  const raced = raceCheck(races.races, ledger.sales);
  checks.push(raced);
  checks.push(...killChecks);
  if (replicated) checks.push(await standbyCaughtUp(replicated));

  const summary = stats.summary(started + rampMs);
  const mismatches = checks.filter((c) => !c.ok).length;
  const results: Results = {
    runId,
    startedAt,
    database,
    cluster: {
      servers,
      replicated: replicated !== null,
      kills: killNotes,
      inFlightAtKills: http.lostInKills,
      unavailable: http.unavailable,
    },
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
      released: ledger.released.length,
      acknowledgedCents: ledger.acknowledged.reduce((n, a) => n + a.priceCents, 0),
    },
    payouts: payoutsOurs
      ? {
          fundsHoldS,
          payoutEveryS,
          accountHoldS,
          accounts: tally(payoutAccounts.map((p) => p.plan)),
          lateReports: ledger.sales.filter((s) => s.lateReport).length,
          settleS,
        }
      : null,
    races: { started: races.races.length, contested: raced.contested, released: raced.released },
    sales: {
      holdS: expiries ? holdS : null,
      timedWorkMs: args.url ? null : timedWorkMs,
      admin: admin !== null,
      byFate: tally(ledger.sales.map((s) => s.fate)),
      byStage: tally(ledger.sales.map((s) => s.stage ?? 'unknown')),
      wrongCodes: ledger.sales.reduce((n, s) => n + s.wrongCodes, 0),
      expiredFirst: ledger.sales.filter((s) => s.tooLate).length,
      endingS,
    },
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
