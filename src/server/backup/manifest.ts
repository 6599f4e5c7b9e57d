/**
 * What a backup of the embedded setup is (docs/backups.md): a directory with the database's dump,
 * the photos that database knows, the secrets that read it, and a manifest written last that lists
 * each file with its size and sha256, the rows of each table and the migrations applied. A
 * directory without a manifest is not a backup. Shared by `take-backup.ts` and `restore-backup.ts`.
 */
import { createHash } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { chmod, copyFile, open, readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { z } from 'zod';
import { MIGRATIONS_DIR, PGLITE_EXTENSIONS } from '../db/client';
import { IMAGES_URL_PREFIX, isVariantName } from '../images/image-store';

export const MANIFEST = 'manifest.json';
/** The database's directory in DATA_DIR (the server opens DATA_DIR/db). */
export const DATABASE_DIR = 'db';
export const DUMP = 'database.tar.gz';
/** Named as in DATA_DIR, which they replace on a restore. */
export const PHOTOS = 'uploads';
export const SECRETS = 'secrets';

/** What the operator got wrong (a missing backup, a running server): said, never a stack. */
export class BackupError extends Error {}

/** A plain file name: a manifest names nothing outside its own directories. */
export const fileName = z.string().regex(/^(?!\.\.?$)[^/\\\0]+$/, 'must be a plain file name');
const count = z.number().int().nonnegative();

const fileSchema = z.object({
  name: fileName,
  bytes: count,
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type BackupFile = z.infer<typeof fileSchema>;

export const manifestSchema = z.object({
  format: z.literal(1),
  createdAt: z.iso.datetime(),
  /** Where the backed-up data lived, for the operator's information. */
  dataDir: z.string(),
  database: z.object({
    file: fileSchema,
    /** drizzle's record: how many migrations were applied, and the last one's tag. */
    migrations: z.object({ applied: count, latest: z.string() }),
    /** Rows of each table of the dump, checked again after a restore. */
    tables: z.record(z.string(), count),
  }),
  photos: z.discriminatedUnion('store', [
    z.object({
      store: z.literal('local'),
      /** Photos the database knows whose files were copied (each in several widths). */
      photos: count,
      /** Photos the database shows whose files were already gone from DATA_DIR/uploads. */
      missing: z.array(z.string()),
      // Only our photo variants: a crafted backup must not put a page or a script under
      // /images/, served from our own origin.
      files: z.array(
        fileSchema.refine((f) => isVariantName(f.name), 'must be one of our photo variants'),
      ),
    }),
    /** Kept in object storage, which is backed up by its own versioning (docs/backups.md). */
    z.object({ store: z.literal('bucket'), bucket: z.string() }),
  ]),
  secrets: z.object({
    files: z.array(fileSchema),
    /** Secrets set by environment variables: never in DATA_DIR, so never in a backup. */
    fromEnvironment: z.array(z.string()),
  }),
});
export type Manifest = z.infer<typeof manifestSchema>;

/**
 * The secrets' variables (config.ts). One set in the environment is not in DATA_DIR/secrets, so
 * not in a backup: the manifest names it, and a restore needs the same value.
 */
export const SECRET_VARIABLES = ['BETTER_AUTH_SECRET', 'JWT_SECRET', 'IMEI_KEY'] as const;

/** What a dump holds, read from the dump itself rather than from the live database. */
export type DumpInventory = {
  tables: Record<string, number>;
  migrations: { applied: number; latest: string };
  /** The photos as the sweep of loose photos sees them (loose-photos.ts): */
  photos: {
    /** every URL a phone or an order shows; */
    shown: string[];
    /** and every upload or let-go photo not swept yet, which a seller may still be saving. */
    loose: string[];
  };
};

/**
 * A dump opened as a database: in memory, or unpacked into `dir`. Not through `openDatabase`,
 * which would migrate it: a backup is read as it was taken. The extensions are the schema's.
 */
export const openDump = (dump: Blob, dir?: string): Promise<PGlite> =>
  PGlite.create(dir, { loadDataDir: dump, extensions: PGLITE_EXTENSIONS });

export async function inventoryOf(pg: PGlite): Promise<DumpInventory> {
  const tables: Record<string, number> = {};
  const names = await pg.query<{ name: string }>(
    `select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  for (const { name } of names.rows) {
    const rows = await pg.query<{ n: number }>(
      `select count(*)::int as n from "${name.replaceAll('"', '""')}"`,
    );
    tables[name] = rows.rows[0]?.n ?? 0;
  }
  const applied = await pg.query<{ n: number; latest: string | null }>(
    'select count(*)::int as n, max(created_at)::text as latest from drizzle.__drizzle_migrations',
  );
  const { n = 0, latest = null } = applied.rows[0] ?? {};
  const urls = async (query: string) =>
    (await pg.query<{ url: string }>(query)).rows.map((row) => row.url).sort();
  return {
    tables,
    migrations: { applied: n, latest: await migrationTagOf(latest) },
    photos: {
      shown: await urls(
        'select unnest(photos) as url from products union select image from orders',
      ),
      loose: await urls('select url from loose_photos where swept_at is null'),
    },
  };
}

/**
 * The tag of the migration drizzle recorded with this time (`0016_rate_limits`), or the time
 * itself when this version has no such migration (a database of a later version).
 */
async function migrationTagOf(createdAt: string | null): Promise<string> {
  if (createdAt === null) return 'none';
  const entry = (await migrationJournal()).find((e) => String(e.when) === createdAt);
  return entry?.tag ?? createdAt;
}

/** The migrations this version of the server knows, oldest first. */
export async function migrationJournal(): Promise<{ when: number; tag: string }[]> {
  const journal = JSON.parse(
    await readFile(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8'),
  ) as { entries: { when: number; tag: string }[] };
  return journal.entries;
}

/** The content hash of one of our photo URLs, or null for another host's (imgbb). */
export function photoHashOf(url: string): string | null {
  if (!url.startsWith(IMAGES_URL_PREFIX)) return null;
  const name = url.slice(IMAGES_URL_PREFIX.length);
  return isVariantName(name) ? name.slice(0, 32) : null;
}

/** A file as a manifest lists it. */
export async function fileEntryOf(file: string): Promise<BackupFile> {
  const { size } = await stat(file);
  return { name: path.basename(file), bytes: size, sha256: await sha256Of(file) };
}

/** A copy of its own (a clone where the file system can, so cheap), owner only, on the disk. */
export async function copyInto(source: string, dir: string): Promise<BackupFile> {
  const target = path.join(dir, path.basename(source));
  await copyFile(source, target, constants.COPYFILE_FICLONE | constants.COPYFILE_EXCL);
  await chmod(target, 0o600);
  await syncPath(target);
  return fileEntryOf(target);
}

/** The regular files in a directory, or none when it does not exist. */
export async function namesIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(ifMissing([]));
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
    .sort();
}

/** Writes a new file, owner only, and flushes it to the disk. */
export async function writeDurably(file: string, content: string | Buffer): Promise<void> {
  const handle = await open(file, 'wx', 0o600);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** For a `.catch`: answers `fallback` when the file is not there, and rethrows anything else. */
export const ifMissing =
  <T>(fallback: T) =>
  (err: NodeJS.ErrnoException): T => {
    if (err.code === 'ENOENT') return fallback;
    throw err;
  };

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Flushes a file or a directory (its entries) to the disk, so a power cut keeps what is done. */
export async function syncPath(target: string): Promise<void> {
  const handle = await open(target, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The real path of `target`, which need not exist yet (its nearest existing parent is resolved). */
async function realPathOf(target: string): Promise<string> {
  try {
    return await realpath(target);
  } catch {
    const parent = path.dirname(target);
    if (parent === target) return target;
    return path.join(await realPathOf(parent), path.basename(target));
  }
}

/** Whether `inner` is `outer` or inside it, symbolic links followed. */
export async function isWithin(inner: string, outer: string): Promise<boolean> {
  const relative = path.relative(await realPathOf(outer), await realPathOf(inner));
  const outside = relative === '..' || relative.startsWith(`..${path.sep}`);
  return !outside && !path.isAbsolute(relative);
}

/** A time as a directory name: sortable, and valid on every file system. */
export const timeStamp = (now: Date) => now.toISOString().replace(/[:.]/g, '-');

/** A size for people: `812 B`, `3.4 MB`. */
export function sizeOf(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB'];
  let size = bytes;
  let unit = 0;
  while (size >= 1000 && unit < units.length - 1) {
    size /= 1000;
    unit++;
  }
  return unit === 0 ? `${size} ${units[0]}` : `${size.toFixed(1)} ${units[unit]}`;
}
