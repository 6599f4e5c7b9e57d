/**
 * `npm run backup [-- --out DIR]`: a consistent copy of the embedded database, its photos and its
 * secrets, with the server's environment, while the server runs or not
 * (src/server/backup/take-backup.ts, docs/backups.md). Each backup is a new directory in DIR,
 * by default beside DATA_DIR, in `<DATA_DIR>-backups`.
 *
 * With DATABASE_URL and PGBACKREST_STANZA set, on the database host: a pgBackRest base backup of
 * PostgreSQL instead (`--type full|diff|incr`; scripts/lib/postgres-backup.ts, decision 047).
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  BackupError,
  DATABASE_DIR,
  ifMissing,
  SECRET_VARIABLES,
  sizeOf,
} from '../src/server/backup/manifest';
import { defaultBackupsDirOf, takeBackup, writeDump } from '../src/server/backup/take-backup';
import { openDatabase } from '../src/server/db/client';
import { DataDirInUseError } from '../src/server/db/data-dir-lock';
import { askRunningServer } from '../src/server/operator';
import { createFilesPrivately } from '../src/server/private-files';
import { configOrFail, fail, parsedOrUsage } from './lib/command-line';
import type { BackupType } from './lib/pgbackrest';
import { backupPostgres, stanzaFromEnvironment } from './lib/postgres-backup';

const USAGE =
  'usage: npm run backup [-- --out DIR]\n' +
  '  --out DIR  where backups are kept, each in a new directory (default: <DATA_DIR>-backups)\n' +
  'with DATABASE_URL and PGBACKREST_STANZA set: npm run backup [-- --type full|diff|incr]\n' +
  "  --type     pgBackRest's backup type (default: incr, or full when there is none yet)";
const TYPES: readonly BackupType[] = ['full', 'diff', 'incr'];

const { out, type } = parsedOrUsage(() => {
  const { values } = parseArgs({ options: { out: { type: 'string' }, type: { type: 'string' } } });
  if (values.type !== undefined && !TYPES.includes(values.type as BackupType)) {
    throw new Error(`--type must be one of ${TYPES.join(', ')}`);
  }
  return { out: values.out, type: values.type as BackupType | undefined };
}, USAGE);
// What it writes (a backup, a restored DATA_DIR) holds secrets: its owner's alone.
createFilesPrivately();
const config = configOrFail();
if (config.DATABASE_URL) {
  try {
    const stanza = stanzaFromEnvironment();
    if (!stanza) {
      fail(
        'DATABASE_URL is set: the database is PostgreSQL, and no pgBackRest stanza is configured ' +
          'here (PGBACKREST_STANZA). On the database host, set up pgBackRest and WAL archiving and ' +
          'run this with PGBACKREST_STANZA set; elsewhere use pg_dump. Photos are kept by the ' +
          "bucket's versioning: see docs/backups.md.",
      );
    }
    if (out)
      fail('--out is for the embedded database: pgBackRest keeps backups in its repository.');
    const lines = await backupPostgres(stanza, { type, databaseUrl: config.DATABASE_URL });
    console.info(lines.join('\n'));
  } catch (err) {
    // Whatever went wrong (pgBackRest, a directory it cannot write), said in words.
    fail(err instanceof Error ? err.message : String(err));
  }
  process.exit(0);
}
if (type) fail('--type is for PostgreSQL (DATABASE_URL with PGBACKREST_STANZA).');

/** The running server writes the dump; with none running, this process opens the directory. */
async function dumpTo(file: string): Promise<void> {
  const answer = await askRunningServer(config.DATA_DIR, { command: 'dump', file });
  if (answer) {
    if (answer.ok) return;
    throw new BackupError(
      `The running server did not write the dump (a server started before this version must be ` +
        `restarted first): ${answer.message}`,
    );
  }
  const directory = path.join(config.DATA_DIR, DATABASE_DIR);
  const found = await access(directory).then(() => true, ifMissing(false));
  if (!found) {
    throw new BackupError(
      `There is no database in ${directory}: nothing to back up. Is DATA_DIR right?`,
    );
  }
  const database = await openDatabase({ dataDir: directory }).catch((err) => {
    if (!(err instanceof DataDirInUseError)) throw err;
    throw new BackupError(
      `${err.message} It does not answer on its operator socket: wait until it has started, or ` +
        'restart it, then run this again.',
    );
  });
  try {
    await writeDump(database, file);
  } finally {
    await database.close();
  }
}

try {
  const { dir, manifest } = await takeBackup({
    dataDir: config.DATA_DIR,
    out: out ?? defaultBackupsDirOf(config.DATA_DIR),
    writeDump: dumpTo,
    bucket: config.S3_BUCKET,
    secretsFromEnvironment: SECRET_VARIABLES.filter((name) => config[name] !== undefined),
  });
  const { database, photos, secrets } = manifest;
  const rows = Object.values(database.tables).reduce((sum, n) => sum + n, 0);
  const lines = [
    `Backed up to ${dir}`,
    `  database: ${sizeOf(database.file.bytes)}, ${rows} rows in ${Object.keys(database.tables).length} tables, migration ${database.migrations.latest}`,
  ];
  if (photos.store === 'local') {
    const bytes = photos.files.reduce((sum, f) => sum + f.bytes, 0);
    lines.push(`  photos: ${photos.photos} (${photos.files.length} files, ${sizeOf(bytes)})`);
  } else {
    lines.push(
      `  photos: in the bucket ${photos.bucket}, not copied: its versioning keeps them (docs/backups.md)`,
    );
  }
  lines.push(`  secrets: ${secrets.files.map((f) => f.name).join(', ') || 'none in DATA_DIR'}`);
  for (const name of secrets.fromEnvironment) {
    lines.push(
      `  ${name} is set in the environment, so it is not in this backup: a restore needs the same value.`,
    );
  }
  lines.push(
    'It holds personal data and the secrets that read it: keep it off this disk, owner-only (docs/backups.md).',
  );
  console.info(lines.join('\n'));
  if (photos.store === 'local' && photos.missing.length > 0) {
    console.warn(
      `Warning: ${photos.missing.length} photo(s) that phones or orders show were already missing ` +
        `from ${path.join(config.DATA_DIR, 'uploads')}:\n  ${photos.missing.join('\n  ')}`,
    );
  }
} catch (err) {
  if (err instanceof BackupError) fail(err.message);
  throw err;
}
process.exit(0);
