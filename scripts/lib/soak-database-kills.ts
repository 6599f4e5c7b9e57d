/**
 * The soak on a replicated PostgreSQL (issue 32, decision 045): Patroni's pair behind haproxy,
 * its primary's or its standby's postmaster killed (SIGKILL) mid-run. Each kill opens an outage
 * window, closed once a primary serves the site again; the soak's client treats a 503 or a
 * broken connection inside a window as a person does (asks again as Retry-After says), and
 * anything else (a 500 above all) as an error. At the end the standby must have caught up.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import {
  type HaNode,
  type PostgresBalancer,
  type PostgresHa,
  postgresHaMissing,
  startPostgresBalancer,
  startPostgresHa,
} from './postgres-ha';
import { queryOnce } from './postgres-query';
import type { Outage } from './soak-http';
import type { Check } from './soak-reconcile';

export type DatabaseKill = 'primary' | 'standby';

/** The bound: a new primary serves within this after the primary's death. */
export const FAILOVER_LIMIT_MS = 30_000;

export function parseDatabaseKills(value: string | undefined): DatabaseKill[] | string {
  if (!value) return [];
  const kills = value.split(',').map((k) => k.trim());
  const bad = kills.find((k) => k !== 'primary' && k !== 'standby');
  return bad === undefined
    ? (kills as DatabaseKill[])
    : `--kill-database takes primary, standby or both in order (primary,standby); not "${bad}"`;
}

export type ReplicatedDatabase = {
  ha: PostgresHa;
  balancer: PostgresBalancer;
  /** haproxy's primary port: the servers' DATABASE_URL. */
  url: string;
  stop: () => Promise<void>;
};

export async function startReplicatedDatabase(): Promise<ReplicatedDatabase> {
  const missing = postgresHaMissing();
  if (missing) throw new Error(`--ha needs ${missing} (Debian's packages)`);
  const ha = await startPostgresHa({ startTimeoutMs: 120_000 });
  try {
    const balancer = await startPostgresBalancer(ha);
    return {
      ha,
      balancer,
      url: balancer.primaryUrl,
      stop: async () => {
        await balancer.stop();
        await ha.stop();
      },
    };
  } catch (err) {
    await ha.stop();
    throw err;
  }
}

/** Answers once `site` serves a call that reads the database (health asks for a primary). */
async function siteServes(site: string, deadline: number): Promise<boolean> {
  while (Date.now() < deadline) {
    const ok = await fetch(new URL('/api/health', site), { signal: AbortSignal.timeout(3000) })
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) return true;
    await sleep(200);
  }
  return false;
}

/**
 * Kills each target in turn, the first at `firstAtMs` after `started` and the rest `gapMs`
 * apart, each once the pair is whole again (a primary with its synchronous standby). Writes each
 * outage into `outages` as it happens and a line per kill into `notes`; answers the checks.
 */
export function scheduleDatabaseKills(options: {
  database: ReplicatedDatabase;
  kills: DatabaseKill[];
  site: string;
  started: number;
  firstAtMs: number;
  gapMs: number;
  outages: Outage[];
  notes: string[];
}): { done: Promise<Check[]>; cancel: () => void } {
  const { database, kills, site, started, outages, notes } = options;
  let cancelled = false;
  const seconds = (at: number) => `${((at - started) / 1000).toFixed(1)} s`;
  const done = (async () => {
    const checks: Check[] = [];
    for (const [i, target] of kills.entries()) {
      const at = started + options.firstAtMs + i * options.gapMs;
      await sleep(Math.max(0, at - Date.now()));
      if (cancelled) break;
      const primary = await database.ha.waitForPrimary({ withStandby: true, timeoutMs: 60_000 });
      const victim: HaNode | undefined =
        target === 'primary' ? primary : database.ha.nodes.find((n) => n !== primary);
      if (!victim) throw new Error(`no ${target} to kill`);
      const outage: Outage = { from: Date.now(), to: null };
      outages.push(outage);
      database.ha.kill(victim);
      console.info(`  killed the ${target} (${victim.name}) at ${seconds(outage.from)}`);
      // What the site needs again: a primary other than the killed one; or, after the standby's
      // death, the pair whole again (meanwhile the primary's commits may wait for Patroni to
      // drop the lost standby from synchronous replication). Backends of a killed postmaster
      // answer for a moment yet, so the site answering at once proves nothing.
      if (target === 'primary') {
        await database.ha.waitForPrimary({ not: victim, timeoutMs: 60_000 }).catch(() => null);
      } else {
        await sawDown(database.ha, victim);
        await database.ha
          .waitForPrimary({ withStandby: true, timeoutMs: 60_000 })
          .catch(() => null);
      }
      const served = await siteServes(site, outage.from + 60_000);
      outage.to = Date.now();
      const took = outage.to - outage.from;
      const now = await database.ha.primary();
      if (target === 'primary') {
        checks.push({
          name: `the primary killed at ${seconds(outage.from)}: a new primary serves the site within ${FAILOVER_LIMIT_MS / 1000} s`,
          ok: served && took <= FAILOVER_LIMIT_MS && now !== undefined && now !== victim,
          detail: `${victim.name} killed; ${now?.name ?? 'no node'} primary, the site served again after ${(took / 1000).toFixed(1)} s`,
        });
      } else {
        checks.push({
          name: `the standby killed at ${seconds(outage.from)}: the primary goes on`,
          ok: served && now === primary,
          detail: `${victim.name} killed; ${now?.name ?? 'no node'} primary (was ${primary.name}), the site served after ${(took / 1000).toFixed(1)} s`,
        });
      }
      notes.push(
        `the PostgreSQL ${target} ${victim.name} killed (SIGKILL) at ${seconds(outage.from)}, the site served again ${(took / 1000).toFixed(1)} s later`,
      );
    }
    return checks;
  })();
  return {
    done,
    cancel: () => {
      cancelled = true;
    },
  };
}

/** Waits (up to 15 s) until Patroni no longer reports `node` as running. */
async function sawDown(ha: PostgresHa, node: HaNode): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const member = (await ha.members().catch(() => [])).find((m) => m.name === node.name);
    if (member?.state !== 'running' && member?.state !== 'streaming') return;
    await sleep(200);
  }
}

const query = <T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> =>
  queryOnce<T>(url, text, [], { connectTimeoutMs: 3000 });

/** What every committed sale leaves: compared between the primary and the standby. */
const COUNTS = `select (select count(*) from orders) as orders,
  (select count(*) from payments) as payments,
  (select count(*) from ledger_entries) as ledger_entries,
  (select count(*) from messages) as messages`;

/**
 * The standby that came back (a killed node rejoins as a standby) has replayed everything the
 * primary has: its replay position reaches the primary's, and the tables agree.
 */
export async function standbyCaughtUp(database: ReplicatedDatabase): Promise<Check> {
  const name = 'the standby came back and caught up: the same orders, payments, entries, messages';
  try {
    const primary = await database.ha.waitForPrimary({ withStandby: true, timeoutMs: 90_000 });
    const standby = database.ha.nodes.find((n) => n !== primary);
    if (!standby) return { name, ok: false, detail: 'no standby' };
    const [target] = await query<{ lsn: string }>(
      primary.url,
      'select pg_current_wal_lsn() as lsn',
    );
    const deadline = Date.now() + 60_000;
    let behind = true;
    while (behind && Date.now() < deadline) {
      const [row] = await query<{ behind: boolean }>(
        standby.url,
        `select pg_last_wal_replay_lsn() < '${target?.lsn}'::pg_lsn as behind`,
      );
      behind = row?.behind !== false;
      if (behind) await sleep(200);
    }
    const [onPrimary] = await query(primary.url, COUNTS);
    const [onStandby] = await query(standby.url, COUNTS);
    const same = JSON.stringify(onPrimary) === JSON.stringify(onStandby);
    return {
      name,
      ok: !behind && same,
      detail: `${standby.name} standby of ${primary.name}${behind ? ', still behind after 60 s' : ''}: ${JSON.stringify(onStandby)} against ${JSON.stringify(onPrimary)}`,
    };
  } catch (err) {
    return { name, ok: false, detail: (err as Error).message };
  }
}
