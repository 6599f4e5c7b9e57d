/**
 * One process per PGlite data directory. PGlite is PostgreSQL in single-user mode inside this
 * process, and its own `postmaster.pid` holds a fixed fake pid, so nothing stops a second server
 * (a second `npm start`, a supervisor restarting before the old process is gone) from opening
 * the same files: two PostgreSQL instances writing one directory corrupt it and lose commits.
 * Like PostgreSQL's postmaster.pid, the lock file names the owning process; a lock whose owner
 * is gone (killed, crashed) is stale and taken over at once, so a restart after a crash is not
 * held up.
 */
import { readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const LOCK_FILE = 'phone-market.pid';

export class DataDirInUseError extends Error {}

/** Directories this process holds: its own pid in a lock file is only stale if not listed here. */
const held = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the pid in a lock file can still be writing to the directory. */
function ownerIsLive(pid: number, dir: string): boolean {
  if (pid === process.pid) return held.has(dir);
  // After a container restart the old pid is often reused by our parent (npm, tsx): as in
  // PostgreSQL, our parent cannot be a server on this directory.
  if (pid === process.ppid) return false;
  return Number.isInteger(pid) && pid > 0 && isAlive(pid);
}

/** Takes the directory for this process, or throws DataDirInUseError naming the owner. */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const dir = path.resolve(dataDir);
  const file = path.join(dir, LOCK_FILE);
  // Bounded: each round either creates the file or removes a stale one.
  for (let attempt = 0; attempt < 10; attempt++) {
    try {
      await writeFile(file, `${process.pid}\n`, { flag: 'wx' });
      held.add(dir);
      return async () => {
        held.delete(dir);
        await unlink(file).catch(() => {});
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const owner = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10);
    if (ownerIsLive(owner, dir)) {
      throw new DataDirInUseError(
        `The database directory ${dir} is in use by process ${owner}; stop that server first.`,
      );
    }
    await unlink(file).catch(() => {});
  }
  throw new DataDirInUseError(`Could not lock the database directory ${dir}.`);
}
