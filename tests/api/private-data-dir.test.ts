/**
 * Files only the owner can read (issue 29, decision 037): the real server started on a fresh
 * DATA_DIR under the usual umask (022) leaves no file or directory that the group or others may
 * read or write: not the database's, not a kept mail (a reset link is in one), not a photo, not a
 * secret; neither do `npm run backup` and `npm run restore`; and a start on a DATA_DIR an older
 * version left open says so and closes it. PGlite only by nature: it runs the same with or
 * without TEST_DATABASE_URL.
 */
import { chmod, lstat, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServer } from '../../scripts/lib/server-process';
import { GOOD_PASSWORD, uniqueEmail } from '../helpers/accounts';
import { multipartFile } from '../helpers/multipart';
import { runScript } from '../helpers/run-script';

/** Quiet servers: no timed work writing on its own, no drain wait. */
const QUIET = { DRAIN_MS: '0', TIMED_WORK_MS: '3600000' };

let root: string;
let dataDir: string;
let server: ServerProcess | undefined;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'phone-market-private-'));
  dataDir = path.join(root, 'data');
});
afterAll(async () => {
  await server?.kill();
  await rm(root, { recursive: true, force: true });
});

const start = async () => {
  // A fresh database's migrations take a while on a small machine.
  server = await startServer({ dataDir, env: QUIET, startTimeoutMs: 150_000 });
  return server;
};
const stop = async () => {
  expect(await server?.stop()).toBe(0);
  server = undefined;
};

/** Every path under `dir` (itself included) that the group or others may use, with its mode. */
async function openToOthers(dir: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (target: string) => {
    const info = await lstat(target);
    if (info.isSymbolicLink()) return;
    if (info.mode & 0o077)
      found.push(`${path.relative(root, target)} ${(info.mode & 0o777).toString(8)}`);
    if (info.isDirectory())
      for (const name of await readdir(target)) await visit(path.join(target, name));
  };
  await visit(dir);
  return found;
}

const mailFiles = async () =>
  (await readdir(path.join(dataDir, 'mail')).catch(() => [])).filter((n) => n.endsWith('.eml'));

/** A seller signed up through the running server, with a photo uploaded: mail, photos, rows. */
async function sellerWithPhoto(): Promise<void> {
  const base = server?.url ?? '';
  const json = { origin: base, 'content-type': 'application/json' };
  const email = uniqueEmail('private');
  const signUp = await fetch(`${base}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email, name: 'Private seller', password: GOOD_PASSWORD }),
  });
  expect(signUp.status).toBe(200);
  const cookie = signUp.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const user = await fetch(`${base}/api/users`, {
    method: 'POST',
    headers: { ...json, cookie },
    body: JSON.stringify({ email, name: 'Private seller', type: 'seller' }),
  });
  expect(user.status).toBe(200);
  const token = await fetch(`${base}/api/jwt?email=${encodeURIComponent(email)}`, {
    headers: { origin: base, cookie },
  });
  const { accessToken } = (await token.json()) as { accessToken: string };
  const bytes = await sharp({ create: { width: 48, height: 48, channels: 3, background: '#36c' } })
    .png()
    .toBuffer();
  const body = multipartFile('image', 'phone.png', bytes, 'image/png');
  const upload = await fetch(`${base}/api/images`, {
    method: 'POST',
    headers: { origin: base, ...body.headers, authorization: `bearer ${accessToken}` },
    body: body.payload,
  });
  expect(upload.status).toBe(200);
}

describe('DATA_DIR is its owner’s alone', () => {
  it('from the first start: the database, a kept mail, the photos and the secrets', async () => {
    expect(process.umask() & 0o077, 'the test runs under an ordinary umask').not.toBe(0o077);
    await start();
    await sellerWithPhoto();
    // The welcome mail is kept as a file once the outbox has delivered it.
    for (let i = 0; i < 100 && (await mailFiles()).length === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await mailFiles()).toHaveLength(1);
    // While the server runs, nobody else gets into DATA_DIR at all.
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    await stop();
    expect(await readdir(dataDir)).toEqual(
      expect.arrayContaining(['db', 'mail', 'secrets', 'uploads']),
    );
    expect(await openToOthers(dataDir)).toEqual([]);
  }, 300_000);

  it('after a backup and a restore', async () => {
    await start();
    const backup = await runScript('scripts/backup.ts', [], { DATA_DIR: dataDir });
    expect(backup.code, backup.output).toBe(0);
    const backupDir = /Backed up to (\S+)/.exec(backup.output)?.[1] ?? '';
    await stop();
    expect(await openToOthers(path.dirname(backupDir))).toEqual([]);

    const restore = await runScript('scripts/restore.ts', [backupDir], { DATA_DIR: dataDir });
    expect(restore.code, restore.output).toBe(0);
    expect(await openToOthers(dataDir)).toEqual([]);
  }, 300_000);

  it('a start on a DATA_DIR others can read says so and makes it private', async () => {
    const [mail] = await mailFiles();
    await chmod(dataDir, 0o755);
    await chmod(path.join(dataDir, 'mail'), 0o755);
    await chmod(path.join(dataDir, 'mail', mail as string), 0o644);
    await start();
    expect(server?.output()).toContain(
      `DATA_DIR ${dataDir} was readable by others (the directory itself, mail); made private`,
    );
    await stop();
    expect(await openToOthers(dataDir)).toEqual([]);

    // Once private, a start has nothing to say.
    await start();
    expect(server?.output()).not.toContain('was readable by others');
    await stop();
  }, 300_000);
});
