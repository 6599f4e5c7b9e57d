/**
 * pgBackRest, the tool that keeps PostgreSQL's base backups and WAL archive (decision 047): its
 * configuration file, and the commands `npm run backup`/`restore`, `npm run cluster -- --ha` and
 * the recovery test run (`stanza-create`, `backup`, `restore` to a moment, `info`).
 *
 * pgBackRest reads the data directory and writes the repository with the rights of PostgreSQL's
 * own OS user, so it runs as that user: as `postgres` when we are root (PostgreSQL itself refuses
 * root), as ourselves otherwise. Its failures come back as a `PgbackrestError` holding its own
 * `ERROR: [code]` line and hints, for a command to say in words, never a stack.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/** The stanza (pgBackRest's name for one PostgreSQL cluster and its backups) we use. */
export const DEFAULT_STANZA = 'market';

/** pgBackRest's binary, found on PATH or where Debian installs it. */
export function pgbackrestBin(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/bin'];
  for (const dir of dirs) {
    if (!dir) continue;
    const file = path.join(dir, 'pgbackrest');
    if (existsSync(file)) return file;
  }
  return undefined;
}

/** Why pgBackRest cannot run here, or null when it can. */
export function pgbackrestMissing(): string | null {
  return pgbackrestBin()
    ? null
    : 'not installed: pgbackrest (Debian: apt-get install -y pgbackrest)';
}

/** A stanza's name as pgBackRest allows it (it becomes a directory and a config section). */
export const STANZA_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export type RepoConfig = {
  stanza: string;
  /** The repository: a directory here (for S3, see docs/backups.md). */
  repoPath: string;
  /** The PostgreSQL data directories the stanza may back up, each with its port: one, or a Patroni pair. */
  pg: { path: string; port: number }[];
  /** The directory of PostgreSQL's Unix socket, when not the default. */
  socketPath?: string;
  /** Where pgBackRest keeps its locks; default its own (/tmp/pgbackrest). */
  lockPath?: string;
  /** false: no log files (a throwaway cluster); default pgBackRest's, in /var/log/pgbackrest. */
  logFiles?: boolean;
  /** Full backups kept (with the differential ones and the WAL that depend on them). */
  retentionFull?: number;
};

/** A pgbackrest.conf for `config` (INI), as docs/backups.md shows one for production. */
export function pgbackrestConfigText(config: RepoConfig): string {
  const global = [
    '[global]',
    `repo1-path=${config.repoPath}`,
    `repo1-retention-full=${config.retentionFull ?? 2}`,
    // An immediate checkpoint at a backup's start: a backup begins now rather than at the next
    // scheduled checkpoint, up to checkpoint_timeout later.
    'start-fast=y',
    // lz4 compresses a little less than gzip at a fraction of its CPU.
    'compress-type=lz4',
    'log-level-console=warn',
    ...(config.lockPath ? [`lock-path=${config.lockPath}`] : []),
    ...(config.logFiles === false ? ['log-level-file=off'] : []),
  ];
  const stanza = [`[${config.stanza}]`];
  config.pg.forEach((pg, i) => {
    stanza.push(`pg${i + 1}-path=${pg.path}`, `pg${i + 1}-port=${pg.port}`);
    if (config.socketPath) stanza.push(`pg${i + 1}-socket-path=${config.socketPath}`);
  });
  return `${global.join('\n')}\n\n${stanza.join('\n')}\n`;
}

/** Where to find the stanza: its name, and the config file when not pgBackRest's default. */
export type Stanza = { stanza: string; config?: string };

/**
 * The `archive_command` that pushes each finished WAL segment to the stanza's repository. With
 * `pgPath`, for one of several data directories on one machine (the loopback Patroni pair): the
 * `%p` PostgreSQL gives is relative to its own data directory.
 */
export function archiveCommand({ stanza, config }: Stanza, pgPath?: string): string {
  return [
    'pgbackrest',
    ...(config ? [`--config=${config}`] : []),
    `--stanza=${stanza}`,
    ...(pgPath ? [`--pg1-path=${pgPath}`] : []),
    'archive-push',
    '%p',
  ].join(' ');
}

/** What pgBackRest said when it failed: its code (`ERROR: [055]`), its error and hint lines. */
export class PgbackrestError extends Error {
  constructor(
    readonly code: number | null,
    message: string,
    readonly output: string,
  ) {
    super(message);
  }
}

/** The OS user pgBackRest runs as: PostgreSQL's when we are root. */
const runsAsPostgres = () => process.getuid?.() === 0;

/** Runs `pgbackrest <args>` as PostgreSQL's user; answers its standard output. */
export function runPgbackrest(
  { stanza, config }: Stanza,
  command: string,
  args: string[] = [],
): Promise<string> {
  const bin = pgbackrestBin();
  if (!bin) return Promise.reject(new PgbackrestError(null, pgbackrestMissing() as string, ''));
  const full = [...(config ? [`--config=${config}`] : []), `--stanza=${stanza}`, ...args, command];
  const [file, argv] = runsAsPostgres()
    ? ['runuser', ['-u', 'postgres', '--', bin, ...full]]
    : [bin, full];
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'], cwd: '/' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', (err) => reject(new PgbackrestError(null, err.message, '')));
    child.on('close', (code) => {
      if (code === 0) return resolve(stdout);
      const output = `${stderr}${stdout}`;
      // pgBackRest's own words: `ERROR: [055]: …` and the `HINT:` lines after it.
      const error = output.match(/ERROR: \[(\d+)\]: ([^\n]*)/);
      const hints = [...output.matchAll(/HINT: ([^\n]*)/g)].map((m) => m[1]);
      const message = error
        ? [error[2], ...hints.map((h) => `(${h})`)].join(' ')
        : output.trim() || `pgbackrest ${command} ended with code ${code}`;
      reject(new PgbackrestError(error ? Number(error[1]) : code, message, output));
    });
  });
}

/** Creates the stanza's place in the repository; once, after PostgreSQL archives to it. */
export const stanzaCreate = (stanza: Stanza) => runPgbackrest(stanza, 'stanza-create');

/** Checks that the stanza is set up and that a WAL segment switched now reaches the archive. */
export const checkArchive = (stanza: Stanza) => runPgbackrest(stanza, 'check');

export type BackupType = 'full' | 'diff' | 'incr';

/** A base backup (pgBackRest's default is `incr`, changed to `full` when there is none yet). */
export const backup = (stanza: Stanza, type?: BackupType) =>
  runPgbackrest(stanza, 'backup', type ? [`--type=${type}`] : []);

/** What the repository holds for the stanza: its backups and its archive's range. */
export type StanzaInfo = {
  status: { code: number; message: string };
  backup: {
    label: string;
    type: BackupType;
    timestamp: { start: number; stop: number };
    info: { size: number; repository: { size: number } };
  }[];
  archive: { min: string | null; max: string | null }[];
  /** The database system identifier, as text: it is wider than a JavaScript number. */
  systemIds: string[];
};

export async function info(stanza: Stanza): Promise<StanzaInfo> {
  const text = await runPgbackrest(stanza, 'info', ['--output=json']);
  const [entry] = JSON.parse(text) as Omit<StanzaInfo, 'systemIds'>[];
  if (!entry)
    throw new PgbackrestError(null, `pgbackrest info said nothing of ${stanza.stanza}`, text);
  const systemIds = [...text.matchAll(/"system-id":(\d+)/g)].map((m) => m[1] as string);
  return { ...entry, systemIds };
}

/**
 * A time as pgBackRest's `--target` takes it (`YYYY-MM-DD HH:MM:SS.mmm+00`): in UTC, so the
 * restore means the same moment whatever the time zone of the machine or of the server.
 */
export function recoveryTarget(at: Date): string {
  return `${at.toISOString().replace('T', ' ').replace('Z', '')}+00`;
}

/**
 * Restores the stanza into `into` (a new, empty directory) to the moment `to`, or to the end
 * of the archive without one. The copy promotes itself once there and takes writes; archiving
 * is off in it, so it never writes into the archive of the server it was copied from.
 */
export function restore(stanza: Stanza, { into, to }: { into: string; to?: Date }) {
  return runPgbackrest(stanza, 'restore', [
    `--pg1-path=${into}`,
    '--archive-mode=off',
    ...(to ? ['--type=time', `--target=${recoveryTarget(to)}`, '--target-action=promote'] : []),
  ]);
}
