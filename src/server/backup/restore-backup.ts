/**
 * `npm run restore -- DIR`: puts a backup (take-backup.ts) in place of DATA_DIR's database, photos
 * and secrets while the server is stopped, and keeps what was there aside, renamed.
 *
 * Nothing in DATA_DIR changes until the whole backup is checked and staged beside it: the files
 * against the manifest (nothing missing, nothing extra, each sha256), the dump unpacked and its
 * rows counted again. A restore cut off by then leaves the live data as it was, and a staging
 * directory that the next run throws away. Then a journal is written and the directories are
 * swapped by renames, each step decided by what exists, so a restore cut off among the renames is
 * finished by running the command again: every run first finishes the restore in the journal.
 * The database directory's lock keeps a server out while a run lasts.
 */
import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, rename, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { DataDirInUseError, LOCK_FILE, lockDataDir } from '../db/data-dir-lock';
import { tightenTree } from '../private-files';
import {
  BackupError,
  type BackupFile,
  copyInto,
  DATABASE_DIR,
  fileName,
  ifMissing,
  inventoryOf,
  MANIFEST,
  type Manifest,
  manifestSchema,
  migrationJournal,
  namesIn,
  openDump,
  PHOTOS,
  SECRETS,
  syncPath,
  timeStamp,
  writeDurably,
} from './manifest';

/** In DATA_DIR while the directories are being swapped; its presence means "finish me". */
export const RESTORE_JOURNAL = 'restore-in-progress.json';
/** In DATA_DIR, so that its directories move in by a rename on the same file system. */
export const RESTORE_STAGING = 'restore-staging';

const journalSchema = z.object({
  /** The backup being restored, for the messages. */
  backup: z.string(),
  /** Where in DATA_DIR the replaced directories go. */
  aside: fileName,
  /** What is swapped, in this order: the database first, then what reads it. */
  parts: z.array(z.enum([DATABASE_DIR, SECRETS, PHOTOS])),
});
type Journal = z.infer<typeof journalSchema>;

export type RestoreOptions = {
  dataDir: string;
  backupDir: string;
  /** Where the backup's secrets are, when they are kept apart from it; default DIR/secrets. */
  secretsDir?: string | undefined;
  now?: Date;
};

export type RestoreResult = {
  manifest: Manifest;
  /** Where the replaced data is kept; null when DATA_DIR had none. */
  aside: string | null;
  /** A restore cut off earlier, which this run finished first. */
  finished?: { backup: string; aside: string | null };
};

export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const dataDir = path.resolve(options.dataDir);
  const backupDir = path.resolve(options.backupDir);
  const secretsDir = path.resolve(options.secretsDir ?? path.join(backupDir, SECRETS));
  const finished = await finishInterruptedRestore(dataDir);
  const manifest = await checkBackup(backupDir, secretsDir);
  if (finished?.backup === backupDir) {
    await tightenTree(dataDir);
    return { manifest, aside: finished.aside, finished };
  }

  const liveDatabase = path.join(dataDir, DATABASE_DIR);
  await mkdir(liveDatabase, { recursive: true, mode: 0o700 });
  const unlock = await lockOrRefuse(liveDatabase);
  try {
    const staging = path.join(dataDir, RESTORE_STAGING);
    const unlockStaged = await stage(backupDir, secretsDir, manifest, staging).catch(
      async (err) => {
        await rm(staging, { recursive: true, force: true });
        throw err;
      },
    );
    const journal: Journal = {
      backup: backupDir,
      aside: `before-restore-${timeStamp(options.now ?? new Date())}`,
      parts:
        manifest.photos.store === 'local'
          ? [DATABASE_DIR, SECRETS, PHOTOS]
          : [DATABASE_DIR, SECRETS],
    };
    await writeJournal(dataDir, journal);
    const aside = await swapIn(dataDir, journal);
    // The staged database's lock moved in with it and is the live one now, which `unlock`
    // removes; this only forgets the staging path.
    await unlockStaged();
    // The unpacked database has PGlite's own modes, and a backup of an older version's data
    // its modes: what is restored is the owner's alone.
    await tightenTree(dataDir);
    return { manifest, aside, ...(finished ? { finished } : {}) };
  } finally {
    await unlock();
  }
}

/** Reads the manifest and checks the backup's directories against it, before anything changes. */
async function checkBackup(dir: string, secretsDir: string): Promise<Manifest> {
  const text = await readFile(path.join(dir, MANIFEST), 'utf8').catch(ifMissing(null));
  if (text === null) {
    throw new BackupError(
      `${dir} has no ${MANIFEST}: it is not a backup, or one that was cut off ` +
        '(npm run backup writes the manifest last).',
    );
  }
  let manifest: Manifest;
  try {
    manifest = manifestSchema.parse(JSON.parse(text));
  } catch {
    throw new BackupError(`${path.join(dir, MANIFEST)} is damaged: it is not a backup's manifest.`);
  }
  const { latest } = manifest.database.migrations;
  if (!(await migrationJournal()).some((entry) => entry.tag === latest)) {
    throw new BackupError(
      `The backup's database is at migration ${latest}, which this version of the server does ` +
        'not know: restore it with the version that made it, or a later one.',
    );
  }
  await sameFiles(dir, [manifest.database.file], { only: true });
  if (manifest.photos.store === 'local') {
    await sameFiles(path.join(dir, PHOTOS), manifest.photos.files);
  }
  await sameFiles(secretsDir, manifest.secrets.files);
  return manifest;
}

/**
 * Whether `dir` holds the listed files with their sizes (their sha256 is checked on the copies
 * made from them) and, unless `only` the listed ones are looked for, nothing else.
 */
async function sameFiles(
  dir: string,
  listed: BackupFile[],
  { only = false }: { only?: boolean } = {},
): Promise<void> {
  const present = new Set(await namesIn(dir));
  const problems: string[] = [];
  for (const file of listed) {
    if (!present.has(file.name)) problems.push(`${file.name} is missing`);
    else if ((await lstat(path.join(dir, file.name))).size !== file.bytes)
      problems.push(`${file.name} has another size`);
  }
  if (!only) {
    const names = new Set(listed.map((file) => file.name));
    for (const name of present)
      if (!names.has(name)) problems.push(`${name} is not in the manifest`);
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, 5).join('; ');
    const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : '';
    throw new BackupError(
      `${dir} does not match the backup's manifest: ${shown}${more}. Nothing was changed.`,
    );
  }
}

/**
 * Builds DATA_DIR/restore-staging from the backup, each copy checked; answers how to release the
 * lock it takes on the staged database, which keeps a server out of it once it is live.
 */
async function stage(
  backupDir: string,
  secretsDir: string,
  manifest: Manifest,
  staging: string,
): Promise<() => Promise<void>> {
  // Left by a run cut off before its journal: a copy of a backup, never live data.
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { mode: 0o700 });
  const database = path.join(staging, DATABASE_DIR);
  await stageDatabase(path.join(backupDir, manifest.database.file.name), manifest, database);
  if (manifest.photos.store === 'local') {
    await stageFiles(
      path.join(backupDir, PHOTOS),
      path.join(staging, PHOTOS),
      manifest.photos.files,
    );
  }
  await stageFiles(secretsDir, path.join(staging, SECRETS), manifest.secrets.files);
  await syncPath(staging);
  return lockDataDir(database);
}

async function stageDatabase(dumpFile: string, manifest: Manifest, target: string): Promise<void> {
  const bytes = await readFile(dumpFile);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (sha256 !== manifest.database.file.sha256) {
    throw new BackupError(
      `${dumpFile} does not match the manifest's sha256: the backup is damaged.`,
    );
  }
  const pg = await openDump(new Blob([bytes]), target);
  const inventory = await inventoryOf(pg).finally(() => pg.close());
  const expected = manifest.database;
  const differences = Object.keys({ ...expected.tables, ...inventory.tables })
    .filter((table) => expected.tables[table] !== inventory.tables[table])
    .map(
      (table) =>
        `${table}: ${inventory.tables[table] ?? 'no'} rows, not ${expected.tables[table] ?? 'none'}`,
    );
  if (inventory.migrations.latest !== expected.migrations.latest) {
    differences.push(`migration ${inventory.migrations.latest}, not ${expected.migrations.latest}`);
  }
  if (differences.length > 0) {
    throw new BackupError(
      `The unpacked database does not match the manifest (${differences.join('; ')}): ` +
        'the backup is damaged.',
    );
  }
  // The lock file of the server that was backed up came along in the dump.
  await rm(path.join(target, LOCK_FILE), { force: true });
  await syncTree(target);
}

async function stageFiles(source: string, target: string, files: BackupFile[]): Promise<void> {
  await mkdir(target, { mode: 0o700 });
  for (const file of files) {
    const copy = await copyInto(path.join(source, file.name), target);
    if (copy.sha256 !== file.sha256) {
      throw new BackupError(
        `${path.join(source, file.name)} does not match the manifest's sha256: the backup is ` +
          'damaged. Nothing was changed.',
      );
    }
  }
  await syncPath(target);
}

/** Written whole or not at all: a file beside it, flushed, then renamed over. */
async function writeJournal(dataDir: string, journal: Journal): Promise<void> {
  const file = path.join(dataDir, RESTORE_JOURNAL);
  const temporary = `${file}.tmp`;
  await rm(temporary, { force: true });
  await writeDurably(temporary, `${JSON.stringify(journal, null, 2)}\n`);
  await rename(temporary, file);
  await syncPath(dataDir);
}

/** Finishes the restore in DATA_DIR's journal, if one was cut off among its renames. */
async function finishInterruptedRestore(dataDir: string): Promise<RestoreResult['finished']> {
  const file = path.join(dataDir, RESTORE_JOURNAL);
  const text = await readFile(file, 'utf8').catch(ifMissing(null));
  if (text === null) return undefined;
  let journal: Journal;
  try {
    journal = journalSchema.parse(JSON.parse(text));
  } catch {
    throw new BackupError(`${file} is damaged: it was not written by a restore.`);
  }
  const unlocks: (() => Promise<void>)[] = [];
  try {
    for (const database of [
      path.join(dataDir, DATABASE_DIR),
      path.join(dataDir, RESTORE_STAGING, DATABASE_DIR),
    ]) {
      if (await exists(database)) unlocks.push(await lockOrRefuse(database));
    }
    return { backup: journal.backup, aside: await swapIn(dataDir, journal) };
  } finally {
    for (const unlock of unlocks) await unlock();
  }
}

/**
 * Moves each live directory aside and its staged one in. Each step is decided by what exists, so
 * running it again after it was cut off anywhere finishes it. Answers where the old data went.
 */
async function swapIn(dataDir: string, journal: Journal): Promise<string | null> {
  const staging = path.join(dataDir, RESTORE_STAGING);
  const aside = path.join(dataDir, journal.aside);
  await mkdir(aside, { recursive: true, mode: 0o700 });
  for (const part of journal.parts) {
    const staged = path.join(staging, part);
    const live = path.join(dataDir, part);
    const replaced = path.join(aside, part);
    if (!(await exists(staged))) continue;
    if (await exists(live)) {
      if (await exists(replaced)) {
        throw new BackupError(
          `${live} was made after an interrupted restore had set the previous one aside (did a ` +
            `server start?). Move it out of ${dataDir}, then run the restore again.`,
        );
      }
      await rename(live, replaced);
    }
    await rename(staged, live);
  }
  await syncPath(aside);
  await syncPath(dataDir);
  // This process's lock went aside with the old database; what is empty there held nothing.
  await rm(path.join(aside, DATABASE_DIR, LOCK_FILE), { force: true });
  for (const part of journal.parts) await removeIfEmpty(path.join(aside, part));
  const kept = (await removeIfEmpty(aside)) ? null : aside;
  await rm(staging, { recursive: true, force: true });
  await rm(path.join(dataDir, RESTORE_JOURNAL));
  await syncPath(dataDir);
  return kept;
}

async function lockOrRefuse(database: string): Promise<() => Promise<void>> {
  try {
    return await lockDataDir(database);
  } catch (err) {
    if (!(err instanceof DataDirInUseError)) throw err;
    throw new BackupError(`${err.message} A restore replaces its files. Nothing was changed.`);
  }
}

/** Flushes every file and directory under `dir` to the disk. */
async function syncTree(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) await syncTree(child);
    else if (entry.isFile()) await syncPath(child);
  }
  await syncPath(dir);
}

const exists = (target: string): Promise<boolean> =>
  lstat(target).then(() => true, ifMissing(false));

/** Removes a directory that is empty; answers whether it is gone. */
async function removeIfEmpty(dir: string): Promise<boolean> {
  try {
    await rmdir(dir);
    return true;
  } catch (err) {
    const { code } = err as NodeJS.ErrnoException;
    if (code === 'ENOENT') return true;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') return false;
    throw err;
  }
}
