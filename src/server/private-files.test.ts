import { chmod, mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeDataDirPrivate, tightenTree } from './private-files';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'phone-market-private-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

/** A DATA_DIR as an older version left it: 0755 directories, 0644 and 0666 files. */
async function openDataDir(dir: string) {
  await mkdir(path.join(dir, 'mail'), { recursive: true, mode: 0o755 });
  await mkdir(path.join(dir, 'db', 'base'), { recursive: true, mode: 0o755 });
  await writeFile(path.join(dir, 'mail', 'reset.eml'), 'a reset link', { mode: 0o644 });
  await writeFile(path.join(dir, 'db', 'base', '1'), 'rows', { mode: 0o666 });
  for (const d of [dir, path.join(dir, 'mail'), path.join(dir, 'db'), path.join(dir, 'db', 'base')])
    await chmod(d, 0o755);
  await chmod(path.join(dir, 'db', 'base', '1'), 0o666);
}

describe('DATA_DIR made private', () => {
  it('is made 0700 when it is missing, and says nothing', async () => {
    const dir = path.join(root, 'data');
    expect(await makeDataDirPrivate(dir)).toEqual([]);
    expect(await modeOf(dir)).toBe(0o700);
  });

  it('names what others could read and tightens the whole tree once', async () => {
    const dir = path.join(root, 'data');
    await openDataDir(dir);
    expect((await makeDataDirPrivate(dir)).sort()).toEqual(['.', 'db', 'mail']);
    expect(await modeOf(dir)).toBe(0o700);
    expect(await modeOf(path.join(dir, 'db', 'base'))).toBe(0o700);
    expect(await modeOf(path.join(dir, 'mail', 'reset.eml'))).toBe(0o600);
    expect(await modeOf(path.join(dir, 'db', 'base', '1'))).toBe(0o600);
    // Private now: the next start has nothing to say.
    expect(await makeDataDirPrivate(dir)).toEqual([]);
  });

  it('leaves what a symbolic link points to alone', async () => {
    const dir = path.join(root, 'data');
    await mkdir(dir, { mode: 0o700 });
    const outside = path.join(root, 'shared.txt');
    await writeFile(outside, 'not ours', { mode: 0o644 });
    await chmod(outside, 0o644);
    await symlink(outside, path.join(dir, 'link'));
    expect(await tightenTree(dir)).toBe(0);
    expect(await modeOf(outside)).toBe(0o644);
  });
});
