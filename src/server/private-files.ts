/**
 * DATA_DIR is its owner's alone (issue 29, decision 037): it holds the database, the kept mail
 * (reset links among them), the photos and the secrets, and any other account on the machine
 * that could read it could take over the admin's account or rewrite the database. Directories
 * are 0700 and files 0600: a process umask makes new ones so, and what was made otherwise (by an
 * older version, a restore, or PGlite, which sets its files' modes itself) is tightened.
 */
import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';

/** The bits of a mode that let the group or others in. */
const OTHERS = 0o077;

/** From here on, what this process creates is its owner's alone (0700 and 0600). */
export function createFilesPrivately(): void {
  process.umask(OTHERS);
}

/** Tightens `target` and everything under it; answers how many were open to others. */
export async function tightenTree(target: string): Promise<number> {
  const stat = await lstat(target).catch(() => null);
  // A symbolic link's own mode means nothing; what it points to is not ours to change.
  if (!stat || stat.isSymbolicLink()) return 0;
  let opened = 0;
  if (stat.mode & OTHERS) {
    await chmod(target, stat.isDirectory() ? 0o700 : 0o600);
    opened++;
  }
  if (stat.isDirectory()) {
    for (const name of await readdir(target)) opened += await tightenTree(path.join(target, name));
  }
  return opened;
}

/**
 * Makes DATA_DIR, made 0700 if it is missing, private. Only it and what is directly in it are
 * looked at (the photos may be many): when one of them was open to others (a directory made
 * before this version, or by hand), the whole tree is tightened once. Answers the names that
 * were open, for the start to say so; none when all was private already.
 */
export async function makeDataDirPrivate(dataDir: string): Promise<string[]> {
  const dir = path.resolve(dataDir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const open: string[] = [];
  for (const name of ['.', ...(await readdir(dir))]) {
    const stat = await lstat(path.join(dir, name)).catch(() => null);
    if (stat && !stat.isSymbolicLink() && stat.mode & OTHERS) open.push(name);
  }
  if (open.length > 0) await tightenTree(dir);
  return open;
}
