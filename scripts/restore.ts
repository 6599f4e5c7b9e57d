/**
 * `npm run restore -- DIR [--secrets DIR]`: with the server stopped, puts the backup in DIR in
 * place of DATA_DIR's database, photos and secrets, and keeps what was there aside
 * (src/server/backup/restore-backup.ts, docs/backups.md). Run again after it was cut off, it
 * finishes.
 *
 * With DATABASE_URL and PGBACKREST_STANZA set, on the database host: `npm run restore -- --into
 * DIR [--to TIME]` restores PostgreSQL's pgBackRest backups and WAL into a new data directory, to
 * a moment (scripts/lib/postgres-backup.ts, decision 047).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BackupError } from '../src/server/backup/manifest';
import { restoreBackup } from '../src/server/backup/restore-backup';
import { createFilesPrivately } from '../src/server/private-files';
import { configOrFail, fail, parsedOrUsage } from './lib/command-line';
import { parseMoment, restorePostgres, stanzaFromEnvironment } from './lib/postgres-backup';

const USAGE =
  'usage: npm run restore -- DIR [--secrets DIR]\n' +
  '  DIR            a directory made by npm run backup\n' +
  '  --secrets DIR  where its secrets are, when kept apart from it (default: DIR/secrets)\n' +
  'with DATABASE_URL and PGBACKREST_STANZA set: npm run restore -- --into DIR [--to TIME]\n' +
  '  --into DIR     a new, empty directory for the restored PostgreSQL data directory\n' +
  '  --to TIME      the moment to restore to, e.g. "2026-11-27 10:15:00+01" (default: the\n' +
  "                 archive's end; without an offset, this machine's local time)";

const args = parsedOrUsage(() => {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { secrets: { type: 'string' }, into: { type: 'string' }, to: { type: 'string' } },
  });
  if (values.into !== undefined || values.to !== undefined) {
    if (!values.into) throw new Error('give --into, a new directory to restore PostgreSQL into');
    if (positionals.length > 0 || values.secrets !== undefined) {
      throw new Error('--into and --to restore PostgreSQL: give no backup directory or --secrets');
    }
    const to = values.to === undefined ? undefined : parseMoment(values.to);
    return { kind: 'postgres' as const, into: values.into, to };
  }
  if (positionals.length !== 1) throw new Error('give one backup directory');
  return {
    kind: 'embedded' as const,
    backupDir: positionals[0] as string,
    secretsDir: values.secrets,
  };
}, USAGE);
// What it writes (a backup, a restored DATA_DIR) holds secrets: its owner's alone.
createFilesPrivately();
const config = configOrFail();
if (config.DATABASE_URL) {
  try {
    const stanza = stanzaFromEnvironment();
    if (!stanza || args.kind !== 'postgres') {
      fail(
        'DATABASE_URL is set: the database is PostgreSQL. ' +
          (stanza
            ? 'Restore it with --into DIR [--to TIME] (a new data directory, to a moment).'
            : 'No pgBackRest stanza is configured here (PGBACKREST_STANZA): on the database host, ' +
              'set it to restore with --into DIR [--to TIME]; a pg_dump file goes back with ' +
              'pg_restore.') +
          " Photos come back from the bucket's versions: see docs/backups.md.",
      );
    }
    const lines = await restorePostgres(stanza, { into: args.into, to: args.to });
    console.info(lines.join('\n'));
  } catch (err) {
    // Whatever went wrong (pgBackRest, a directory it cannot write), said in words.
    fail(err instanceof Error ? err.message : String(err));
  }
  process.exit(0);
}
if (args.kind === 'postgres') {
  fail('--into and --to restore PostgreSQL: they need DATABASE_URL and PGBACKREST_STANZA set.', 2);
}
const { backupDir, secretsDir } = args;

try {
  const { manifest, aside, finished } = await restoreBackup({
    dataDir: config.DATA_DIR,
    backupDir,
    secretsDir,
  });
  const lines: string[] = [];
  if (finished) {
    lines.push(
      `Finished the restore of ${finished.backup}, which had been cut off.`,
      finished.aside
        ? `  The data it replaced is kept in ${finished.aside}.`
        : '  DATA_DIR had no data before it.',
    );
  }
  if (!finished || finished.backup !== path.resolve(backupDir)) {
    const { database, photos, secrets } = manifest;
    const rows = Object.values(database.tables).reduce((sum, n) => sum + n, 0);
    lines.push(
      `Restored ${path.resolve(backupDir)} (taken ${manifest.createdAt}) into ${config.DATA_DIR}`,
      `  database: ${rows} rows in ${Object.keys(database.tables).length} tables, migration ${database.migrations.latest}`,
      photos.store === 'local'
        ? `  photos: ${photos.photos} (${photos.files.length} files)`
        : `  photos: left as they are: they were in the bucket ${photos.bucket} (docs/backups.md)`,
      `  secrets: ${secrets.files.map((f) => f.name).join(', ') || 'none'}`,
      aside
        ? `The data it replaced is kept in ${aside}; remove it once the restored data is right.`
        : 'DATA_DIR had no data before.',
    );
  }
  for (const name of manifest.secrets.fromEnvironment) {
    lines.push(
      `${name} was set in the environment at the backup: start the server with that value.`,
    );
  }
  if (config.S3_BUCKET && manifest.photos.store === 'local') {
    lines.push(
      'S3_BUCKET is set: the server reads photos from the bucket, not from DATA_DIR/uploads; copy them there with npm run photos:to-s3.',
    );
  }
  lines.push('Start the server.');
  console.info(lines.join('\n'));
} catch (err) {
  if (err instanceof BackupError) fail(err.message);
  throw err;
}
process.exit(0);
