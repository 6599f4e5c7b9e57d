/**
 * `npm run backup`: a consistent copy of the embedded setup, taken while the server runs.
 *
 * The database comes first, as one dump taken between two transactions (the running server writes
 * it, asked on its operator socket; with none running, the command opens the directory itself).
 * The dump is then opened, which proves it whole, and read for the manifest: its rows per table,
 * its migrations, and the photos it knows. Then those photos are copied: a photo's files are named
 * for its content and never change, so a copy made after the dump is right for every photo the dump
 * knows. Photos uploaded after the dump are left out on purpose: the restored database would have
 * no row for them, and the sweep of loose photos, which works from rows, would never remove them.
 * Then the secrets (without the IMEI key no sealed IMEI in the dump can be read), and last the
 * manifest. The directory is written as `<time>.partial` and renamed when complete, so a backup
 * cut off midway never passes for one.
 */
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../db/client';
import { isVariantName } from '../images/image-store';
import {
  BackupError,
  type BackupFile,
  copyInto,
  DUMP,
  type DumpInventory,
  fileEntryOf,
  ifMissing,
  inventoryOf,
  isWithin,
  MANIFEST,
  type Manifest,
  namesIn,
  openDump,
  PHOTOS,
  photoHashOf,
  SECRETS,
  syncPath,
  timeStamp,
  writeDurably,
} from './manifest';

/** Beside DATA_DIR, not in it: a backup is never inside what it backs up. */
export const defaultBackupsDirOf = (dataDir: string) => `${path.resolve(dataDir)}-backups`;

export type BackupOptions = {
  dataDir: string;
  /** Where backups are kept; each is a new directory in it, named for its time. */
  out: string;
  /** Writes the database's dump to this new file (see `writeDump`). */
  writeDump: (file: string) => Promise<void>;
  /** Set when photos are kept in object storage rather than in DATA_DIR/uploads. */
  bucket?: string | undefined;
  /** The secrets' variables that are set in the environment, so not in DATA_DIR/secrets. */
  secretsFromEnvironment: string[];
  now?: Date;
};

export async function takeBackup(
  options: BackupOptions,
): Promise<{ dir: string; manifest: Manifest }> {
  const dataDir = path.resolve(options.dataDir);
  const now = options.now ?? new Date();
  const dir = path.join(path.resolve(options.out), timeStamp(now));
  if (await isWithin(dir, dataDir)) {
    throw new BackupError(
      `${dir} is inside DATA_DIR (${dataDir}): a backup must not be inside what it backs up. ` +
        'Give --out a directory elsewhere.',
    );
  }
  await mkdir(path.dirname(dir), { recursive: true, mode: 0o700 });
  const partial = `${dir}.partial`;
  await mkdir(partial, { mode: 0o700 });
  try {
    const dumpPath = path.join(partial, DUMP);
    await options.writeDump(dumpPath);
    const inventory = await inventoryOfFile(dumpPath);
    const photos: Manifest['photos'] = options.bucket
      ? { store: 'bucket', bucket: options.bucket }
      : {
          store: 'local',
          ...(await copyPhotos(path.join(dataDir, PHOTOS), path.join(partial, PHOTOS), inventory)),
        };
    const manifest: Manifest = {
      format: 1,
      createdAt: now.toISOString(),
      dataDir,
      database: {
        file: await fileEntryOf(dumpPath),
        migrations: inventory.migrations,
        tables: inventory.tables,
      },
      photos,
      secrets: {
        files: await copyFiles(path.join(dataDir, SECRETS), path.join(partial, SECRETS)),
        fromEnvironment: options.secretsFromEnvironment,
      },
    };
    await writeDurably(path.join(partial, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    await syncPath(partial);
    await rename(partial, dir);
    await syncPath(path.dirname(dir));
    return { dir, manifest };
  } catch (err) {
    await rm(partial, { recursive: true, force: true });
    throw err;
  }
}

/**
 * Writes an embedded database's dump to `file`, a new file readable by its owner only. Inside a
 * transaction of its own: PGlite runs one transaction at a time, so the dump waits for the one
 * under way and none starts during it (a dump between two statements of one would still recover,
 * as after a crash, but need not).
 */
export async function writeDump(database: Database, file: string): Promise<void> {
  const { dump } = database;
  if (!dump) throw new BackupError('Only the embedded database is backed up this way.');
  const tarball = await database.db.transaction(() => dump());
  await writeDurably(file, Buffer.from(await tarball.arrayBuffer()));
}

async function inventoryOfFile(dumpPath: string): Promise<DumpInventory> {
  const pg = await openDump(new Blob([await readFile(dumpPath)]));
  try {
    return await inventoryOf(pg);
  } finally {
    await pg.close();
  }
}

/** Copies the files of every photo the dump knows that DATA_DIR/uploads still has. */
async function copyPhotos(
  uploads: string,
  target: string,
  inventory: DumpInventory,
): Promise<{ photos: number; missing: string[]; files: BackupFile[] }> {
  const known = new Set(
    [...inventory.photos.shown, ...inventory.photos.loose].map(photoHashOf).filter(Boolean),
  );
  await mkdir(target, { mode: 0o700 });
  const files: BackupFile[] = [];
  const copied = new Set<string>();
  for (const name of await namesIn(uploads)) {
    const hash = name.slice(0, 32);
    if (!isVariantName(name) || !known.has(hash)) continue;
    // Gone since the listing: the sweep removed a loose photo after the dump, as the restored
    // database's own sweep will. A photo that a phone showed at the dump is not swept so soon:
    // a phone that lets go of a photo gives it a day's grace.
    const file = await copyInto(path.join(uploads, name), target).catch(ifMissing(undefined));
    if (!file) continue;
    files.push(file);
    copied.add(hash);
  }
  await syncPath(target);
  const missing = inventory.photos.shown.filter((url) => {
    const hash = photoHashOf(url);
    return hash !== null && !copied.has(hash);
  });
  return { photos: copied.size, missing, files };
}

/** Copies every file of `source` (none when it does not exist) into a new directory `target`. */
async function copyFiles(source: string, target: string): Promise<BackupFile[]> {
  await mkdir(target, { mode: 0o700 });
  const files: BackupFile[] = [];
  for (const name of await namesIn(source)) {
    files.push(await copyInto(path.join(source, name), target));
  }
  await syncPath(target);
  return files;
}
