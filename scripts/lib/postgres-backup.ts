/**
 * `npm run backup` and `npm run restore` with `DATABASE_URL` set (decision 047, docs/backups.md):
 * a pgBackRest base backup of the stanza named by `PGBACKREST_STANZA`, and a restore of it to a
 * moment into a new data directory. pgBackRest reads the data directory itself, so both run on
 * the database host (or a repository host that reaches it through `pg1-host`); anywhere else they
 * say so. Every failure is a `BackupError` in words.
 */
import { execFileSync } from 'node:child_process';
import { chown, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { BackupError, ifMissing, sizeOf } from '../../src/server/backup/manifest';
import {
  type BackupType,
  backup,
  info,
  PgbackrestError,
  recoveryTarget,
  restore,
  STANZA_NAME,
  type Stanza,
  type StanzaInfo,
} from './pgbackrest';

/**
 * The stanza the operator configured, or undefined when they did not. pgBackRest reads the same
 * two variables itself (`PGBACKREST_STANZA`, `PGBACKREST_CONFIG`); we pass them on its command
 * line too, so a restored server's `restore_command` names the same config file.
 */
export function stanzaFromEnvironment(env: NodeJS.ProcessEnv = process.env): Stanza | undefined {
  const stanza = env.PGBACKREST_STANZA;
  if (!stanza) return undefined;
  if (!STANZA_NAME.test(stanza)) {
    throw new BackupError(
      `PGBACKREST_STANZA must be a stanza's name (letters, digits, _ . -), not ${JSON.stringify(stanza)}.`,
    );
  }
  const config = env.PGBACKREST_CONFIG ? path.resolve(env.PGBACKREST_CONFIG) : undefined;
  return { stanza, config };
}

const SET_UP = 'docs/backups.md, "Set it up on the database host"';

/** pgBackRest's failure said for the operator: what it means here, then its own words. */
function explained(err: unknown, { stanza }: Stanza): BackupError {
  if (!(err instanceof PgbackrestError)) return err as BackupError;
  const said = `pgBackRest said: ${err.message}`;
  if (err.code === null && /not installed/.test(err.message)) {
    return new BackupError(
      'pgBackRest is not installed on this machine. It reads the data directory itself, so PostgreSQL ' +
        'is backed up and restored on the database host (or on a repository host that reaches it ' +
        `through pg1-host): run this command there. Setting it up: ${SET_UP}.`,
    );
  }
  const why: Record<number, string> = {
    // An option pgBackRest needs (pg1-path) is not in its configuration for this stanza.
    31: `The pgBackRest configuration here has no [${stanza}] section with pg1-path: this machine is not set up to back up the database. Run this on the database host, or set PGBACKREST_CONFIG to the file that has it.`,
    37: `The pgBackRest configuration here has no [${stanza}] section with pg1-path: this machine is not set up to back up the database. Run this on the database host, or set PGBACKREST_CONFIG to the file that has it.`,
    56: `pgBackRest could not reach a running primary PostgreSQL through its configuration (pg1-path, pg1-port, pg1-socket-path; it does not use DATABASE_URL). Run this on the database host, with PostgreSQL running.`,
    // Right after a failover, until the new primary's first checkpoint.
    58: 'The primary was promoted moments ago and has not checkpointed on its new timeline yet: run CHECKPOINT on it (or wait a few minutes), then run this again.',
    82: `A WAL segment did not reach the archive in time: is archive_command set to "pgbackrest --stanza=${stanza} archive-push %p" and archive_mode on? pgbackrest --stanza=${stanza} check says what is wrong.`,
  };
  if (err.code === 55) {
    return new BackupError(
      /\.conf/.test(err.message)
        ? `pgBackRest's configuration file is missing: set PGBACKREST_CONFIG to it (default /etc/pgbackrest/pgbackrest.conf). ${said}`
        : `The stanza '${stanza}' is not set up in the repository: on the database host, with archive_command set, run pgbackrest --stanza=${stanza} stanza-create once (${SET_UP}). ${said}`,
    );
  }
  const meaning = err.code === null ? undefined : why[err.code];
  return new BackupError(meaning ? `${meaning} ${said}` : `pgBackRest failed. ${said}`);
}

/** The stanza's state, or why it cannot be used. */
async function stanzaInfo(stanza: Stanza): Promise<StanzaInfo> {
  const found = await info(stanza).catch((err) => {
    throw explained(err, stanza);
  });
  // 1: no stanza directory, 3: its info files missing. 2 (no backup yet) is fine.
  if (found.status.code === 1 || found.status.code === 3) {
    throw new BackupError(
      `The stanza '${stanza.stanza}' is not set up in the repository (pgBackRest: ${found.status.message}): on the database host, with archive_command set, run pgbackrest --stanza=${stanza.stanza} stanza-create once (${SET_UP}).`,
    );
  }
  return found;
}

/** The database system identifier of the server at `url` (text: wider than a number), if reachable. */
async function systemIdOf(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ id: string }>(
      'select system_identifier::text as id from pg_control_system()',
    );
    return rows[0]?.id;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const when = (seconds: number) => new Date(seconds * 1000).toISOString();

export async function backupPostgres(
  stanza: Stanza,
  { type, databaseUrl }: { type?: BackupType; databaseUrl: string },
): Promise<string[]> {
  const before = await stanzaInfo(stanza);
  // The stanza must be the database the servers use: a config left from another cluster would
  // back up the wrong one, every night, silently.
  const systemId = await systemIdOf(databaseUrl);
  if (systemId && before.systemIds.length > 0 && !before.systemIds.includes(systemId)) {
    throw new BackupError(
      `The stanza '${stanza.stanza}' backs up another PostgreSQL (system ${before.systemIds.join(', ')}) than the one at DATABASE_URL (system ${systemId}): check PGBACKREST_STANZA and PGBACKREST_CONFIG.`,
    );
  }
  await backup(stanza, type).catch((err) => {
    throw explained(err, stanza);
  });
  const after = await stanzaInfo(stanza);
  const latest = after.backup.at(-1);
  if (!latest) throw new BackupError('pgBackRest finished but lists no backup.');
  const archive = after.archive.at(-1);
  return [
    `Backed up PostgreSQL with pgBackRest, stanza ${stanza.stanza}: ${latest.type} backup ${latest.label}`,
    `  ${sizeOf(latest.info.size)} of data, ${sizeOf(latest.info.repository.size)} in the repository, taken ${when(latest.timestamp.start)} to ${when(latest.timestamp.stop)}`,
    `  backups kept: ${after.backup.map((b) => `${b.label} (${b.type})`).join(', ')}`,
    `  WAL archived: ${archive?.min ?? 'none'} to ${archive?.max ?? 'none'}`,
    ...(systemId
      ? []
      : ['  DATABASE_URL did not answer, so whether the stanza is its database was not checked.']),
    'A restore to any moment since the oldest backup: npm run restore -- --to TIME --into DIR (docs/backups.md).',
  ];
}

/**
 * `--to` as a moment: `2026-11-27 10:15:00+01`, `2026-11-27T09:15:00Z`, fractions of a second
 * allowed; without an offset, this machine's local time.
 */
export function parseMoment(text: string): Date {
  const match = text
    .trim()
    .match(
      /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?)\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i,
    );
  if (!match) {
    throw new Error(
      `--to ${JSON.stringify(text)} is not a time: write it as 2026-11-27 10:15:00+01 (or …Z for UTC; without an offset, this machine's local time)`,
    );
  }
  const [, day, clock, zone] = match;
  const offset = !zone
    ? ''
    : zone.toUpperCase() === 'Z'
      ? 'Z'
      : `${zone.slice(0, 3)}:${zone.slice(3).replace(':', '') || '00'}`;
  const at = new Date(`${day}T${clock}${offset}`);
  if (Number.isNaN(at.getTime()))
    throw new Error(`--to ${JSON.stringify(text)} is not a real time`);
  return at;
}

/** True when `dir` exists and holds anything. */
const notEmpty = (dir: string) => readdir(dir).then((names) => names.length > 0, ifMissing(false));

export async function restorePostgres(
  stanza: Stanza,
  { to, into }: { to?: Date; into: string },
): Promise<string[]> {
  if (to && to.getTime() > Date.now()) {
    throw new BackupError(
      `--to ${to.toISOString()} is in the future: the archive ends now. Leave out --to to replay everything archived.`,
    );
  }
  const target = path.resolve(into);
  if (await notEmpty(target).catch(() => true)) {
    throw new BackupError(
      `--into ${target} is not empty: a restore goes into a new, empty directory, never over a data directory (stop PostgreSQL and move its directory aside yourself if that is what you mean).`,
    );
  }
  const parent = path.dirname(target);
  if (!(await readdir(parent).then(() => true, ifMissing(false)))) {
    throw new BackupError(`--into ${target}: its parent directory ${parent} does not exist.`);
  }
  const found = await stanzaInfo(stanza);
  const oldest = found.backup[0];
  if (!oldest) {
    throw new BackupError(
      `The stanza '${stanza.stanza}' has no backup yet: take one with npm run backup first.`,
    );
  }
  if (to && to.getTime() < oldest.timestamp.stop * 1000) {
    throw new BackupError(
      `--to ${to.toISOString()} is before the end of the oldest backup (${oldest.label}, ended ${when(oldest.timestamp.stop)}): nothing kept can go back that far.`,
    );
  }
  // Made here, owned by PostgreSQL's user: pgBackRest runs as that user, who may not be allowed
  // to create it.
  await mkdir(target, { recursive: true, mode: 0o700 });
  if (process.getuid?.() === 0) {
    const id = (flag: string) =>
      Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    await chown(target, id('-u'), id('-g'));
  }
  await restore(stanza, { into: target, to }).catch((err) => {
    throw explained(err, stanza);
  });
  const as = process.getuid?.() === 0 ? 'as postgres, ' : '';
  return [
    `Restored the stanza ${stanza.stanza} into ${target}, ${to ? `to ${recoveryTarget(to)} (UTC)` : 'to the end of its WAL archive'}.`,
    `Start PostgreSQL on it, ${as}on a port of its own, for instance:`,
    `  pg_ctl -D ${target} -o '-p 5433' -l ${target}.log start`,
    `It replays the archived WAL ${to ? 'up to that moment' : 'to its end'}, then promotes itself and takes writes. Archiving is off in it (archive_mode=off), so it never writes into the archive of the server it came from.`,
    'Check it, then copy back what was lost, or make it the database: point DATABASE_URL at it, turn archive_mode on and take a full backup (docs/backups.md).',
  ];
}
