import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, LOCK_FILE, lockDataDir } from './data-dir-lock';

let dir: string;
let children: ChildProcess[] = [];

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'phone-market-lock-'));
});
afterEach(async () => {
  for (const child of children) child.kill('SIGKILL');
  children = [];
  await rm(dir, { recursive: true, force: true });
});

/** A real other process: alive until killed. */
function otherProcess(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], {
    stdio: 'ignore',
  });
  children.push(child);
  return child;
}

const lockOwner = async () => (await readFile(path.join(dir, LOCK_FILE), 'utf8')).trim();

describe('the PGlite data directory lock', () => {
  it('refuses a second opening in the same process until the first is released', async () => {
    const release = await lockDataDir(dir);
    await expect(lockDataDir(dir)).rejects.toThrow(DataDirInUseError);
    await release();
    const again = await lockDataDir(dir);
    expect(await lockOwner()).toBe(String(process.pid));
    await again();
  });

  it('refuses a directory that another live process holds, naming it', async () => {
    const other = otherProcess();
    await writeFile(path.join(dir, LOCK_FILE), `${other.pid}\n`);
    await expect(lockDataDir(dir)).rejects.toThrow(`in use by process ${other.pid}`);
  });

  it('takes over at once from a process that was killed', async () => {
    const other = otherProcess();
    await writeFile(path.join(dir, LOCK_FILE), `${other.pid}\n`);
    other.kill('SIGKILL');
    await once(other, 'exit');
    const release = await lockDataDir(dir);
    expect(await lockOwner()).toBe(String(process.pid));
    await release();
  });

  it('takes over a lock file left empty or with our own pid from an earlier life', async () => {
    await writeFile(path.join(dir, LOCK_FILE), '');
    await (await lockDataDir(dir))();
    await writeFile(path.join(dir, LOCK_FILE), `${process.pid}\n`);
    await (await lockDataDir(dir))();
  });
});
