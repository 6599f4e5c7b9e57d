/**
 * `npm run restore -- DIR [--secrets DIR]`: with the server stopped, puts the backup in DIR in
 * place of DATA_DIR's database, photos and secrets, and keeps what was there aside
 * (src/server/backup/restore-backup.ts, docs/backups.md). Run again after it was cut off, it
 * finishes.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BackupError } from '../src/server/backup/manifest';
import { restoreBackup } from '../src/server/backup/restore-backup';
import { createFilesPrivately } from '../src/server/private-files';
import { configOrFail, fail, parsedOrUsage } from './lib/command-line';

const USAGE =
  'usage: npm run restore -- DIR [--secrets DIR]\n' +
  '  DIR            a directory made by npm run backup\n' +
  '  --secrets DIR  where its secrets are, when kept apart from it (default: DIR/secrets)';

const { backupDir, secretsDir } = parsedOrUsage(() => {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { secrets: { type: 'string' } },
  });
  if (positionals.length !== 1) throw new Error('give one backup directory');
  return { backupDir: positionals[0] as string, secretsDir: values.secrets };
}, USAGE);
// What it writes (a backup, a restored DATA_DIR) holds secrets: its owner's alone.
createFilesPrivately();
const config = configOrFail();
if (config.DATABASE_URL) {
  fail(
    'DATABASE_URL is set: the database is PostgreSQL, which this command does not restore. ' +
      "Restore it with PostgreSQL's own tools (pg_restore, or a base backup and its WAL), and " +
      "photos from the bucket's versions: see docs/backups.md.",
  );
}

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
