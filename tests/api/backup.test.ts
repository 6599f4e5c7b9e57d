/**
 * Backups of the embedded setup (issue 21, docs/backups.md): `npm run backup` while the real server
 * runs, changes after it, `npm run restore` with the server stopped, and then the data exactly as
 * it was at the backup: every table's rows, the photo files, and the secrets that read them (a
 * token from before still works, a sealed IMEI still reads). A restore refuses while the server
 * runs and refuses a damaged backup; one cut off among its renames is finished by running it again;
 * both commands refuse on PostgreSQL. PGlite only by nature: it runs the same with or without
 * TEST_DATABASE_URL, and needs no PostgreSQL for the refusal.
 */
import {
  cp,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServer } from '../../scripts/lib/server-process';
import { RESTORE_JOURNAL, RESTORE_STAGING } from '../../src/server/backup/restore-backup';
import { openDatabase } from '../../src/server/db/client';
import { GOOD_PASSWORD, uniqueEmail } from '../helpers/accounts';
import { uniqueImei } from '../helpers/factories';
import { fingerprint } from '../helpers/fingerprint';
import { multipartFile } from '../helpers/multipart';
import { runScript } from '../helpers/run-script';

/** A photo's name that no row of the database knows. */
const UNKNOWN_PHOTO = `${'cd'.repeat(16)}-320.webp`;
/** Quiet servers: no timed work writing on its own between a backup and a look, no drain wait. */
const QUIET = { DRAIN_MS: '0', TIMED_WORK_MS: '3600000' };

type Account = { email: string; bearer: { authorization: string } };
type Manifest = {
  database: { tables: Record<string, number> };
  photos: { files: { name: string }[]; missing: string[] };
  secrets: { files: { name: string }[] };
};

let root: string;
let dataDir: string;
let server: ServerProcess | undefined;
/** The backup taken while the server ran, and the data as it was then. */
let backupDir: string;
let atBackup: DataState;
let seller: Account;
let sellerImei: string;
let photoUrls: string[];

/** `npm run <script> -- …` as the operator runs it, with the server's environment. */
const run = (script: 'backup' | 'restore', args: string[], env: Record<string, string> = {}) =>
  runScript(`scripts/${script}.ts`, args, { DATA_DIR: dataDir, ...env });

type DataState = {
  tables: Record<string, string>;
  photos: string[];
  secrets: Record<string, string>;
};

/** Every row of every table, the photo files and the secrets of a stopped server's DATA_DIR. */
async function stateOf(dir: string): Promise<DataState> {
  const database = await openDatabase({ dataDir: path.join(dir, 'db') });
  const tables = await fingerprint(database.db).finally(() => database.close());
  const secrets: Record<string, string> = {};
  for (const name of await readdir(path.join(dir, 'secrets'))) {
    secrets[name] = await readFile(path.join(dir, 'secrets', name), 'utf8');
  }
  return { tables, photos: (await readdir(path.join(dir, 'uploads'))).sort(), secrets };
}

const start = async () => {
  server = await startServer({ dataDir, env: QUIET });
  return server;
};
const stop = async () => {
  expect(await server?.stop()).toBe(0);
  server = undefined;
};

/** JSON calls as the browser makes them: same-origin, with a bearer token when signed in. */
async function call(method: string, url: string, body?: unknown, headers = {}) {
  const base = server?.url ?? '';
  const res = await fetch(`${base}/api${url}`, {
    method,
    headers: {
      origin: base,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null, headers: res.headers };
}

async function account(type: 'user' | 'seller'): Promise<Account> {
  const email = uniqueEmail(type);
  const signUp = await call('POST', '/auth/sign-up/email', {
    email,
    name: `Backup ${type}`,
    password: GOOD_PASSWORD,
  });
  expect(signUp.status).toBe(200);
  const cookie = signUp.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  expect(
    (await call('POST', '/users', { email, name: `Backup ${type}`, type }, { cookie })).status,
  ).toBe(200);
  const token = await call('GET', `/jwt?email=${encodeURIComponent(email)}`, undefined, { cookie });
  return { email, bearer: { authorization: `bearer ${token.json.accessToken}` } };
}

async function uploadPhoto(who: Account, colour: string): Promise<string> {
  const bytes = await sharp({ create: { width: 48, height: 48, channels: 3, background: colour } })
    .png()
    .toBuffer();
  const body = multipartFile('image', 'phone.png', bytes, 'image/png');
  const res = await fetch(`${server?.url}/api/images`, {
    method: 'POST',
    headers: { origin: server?.url ?? '', ...body.headers, ...who.bearer },
    body: body.payload,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { url: string } }).data.url;
}

async function listPhone(who: Account, photos: string[], imei = uniqueImei()): Promise<string> {
  const res = await call(
    'POST',
    '/products',
    {
      categoryId: '01',
      modelName: `Backed-up phone ${photos.length}`,
      image: photos[0],
      photos,
      originalPrice: '499',
      resellPrice: '250',
      location: 'Austin, TX',
      description: 'Kept in a backup.',
      timeUsed: '6',
      condition: 'Good',
      sellerNumber: '+1 512 555 0100',
      specificatons: { ram: '8 GB', storage: '128 GB', color: 'Black', battery: '4000' },
      imei,
    },
    who.bearer,
  );
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.insertedId;
}

const manifestOf = async (dir: string): Promise<Manifest> =>
  JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8'));
const modeOf = async (file: string) => (await stat(file)).mode & 0o777;
const backupDirIn = (output: string) => /Backed up to (\S+)/.exec(output)?.[1] ?? '';
const asideIn = (output: string) => /kept in (\S+);/.exec(output)?.[1] ?? '';
/** What a restore leaves in DATA_DIR besides the data: the replaced data, and nothing half done. */
const restoreLeftovers = async (dir: string) =>
  (await readdir(dir)).filter((name) => /^before-restore-|^restore-/.test(name)).sort();

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'phone-market-backup-'));
  dataDir = path.join(root, 'data');
  await start();
  seller = await account('seller');
  const buyer = await account('user');
  photoUrls = [await uploadPhoto(seller, '#c33'), await uploadPhoto(seller, '#3c3')];
  sellerImei = uniqueImei();
  const phone = await listPhone(seller, photoUrls, sellerImei);
  expect(
    (
      await call(
        'POST',
        '/order',
        { productId: phone, location: 'Cafe', number: '1' },
        buyer.bearer,
      )
    ).status,
  ).toBe(200);

  // A photo file no row knows, as one uploaded after the dump is to the dump.
  await writeFile(path.join(dataDir, 'uploads', UNKNOWN_PHOTO), 'no row names it');

  // While the server runs.
  const backup = await run('backup', []);
  expect(backup.code, backup.output).toBe(0);
  backupDir = backupDirIn(backup.output);
  await stop();
  const state = await stateOf(dataDir);
  atBackup = { ...state, photos: state.photos.filter((name) => name !== UNKNOWN_PHOTO) };
}, 180_000);

afterAll(async () => {
  await server?.kill();
  await rm(root, { recursive: true, force: true });
});

describe('npm run backup', () => {
  it('writes a new owner-only directory beside DATA_DIR, with the dump, the photos, the secrets and a manifest', async () => {
    expect(path.dirname(backupDir)).toBe(`${dataDir}-backups`);
    expect(await modeOf(backupDir)).toBe(0o700);
    expect(await modeOf(path.join(backupDir, 'secrets'))).toBe(0o700);
    for (const name of await readdir(path.join(backupDir, 'secrets'))) {
      expect(await modeOf(path.join(backupDir, 'secrets', name))).toBe(0o600);
    }
    expect((await readdir(backupDir)).sort()).toEqual([
      'database.tar.gz',
      'manifest.json',
      'secrets',
      'uploads',
    ]);

    const manifest = await manifestOf(backupDir);
    // The dump's rows are the rows at the backup, table by table.
    const rowsAtBackup = Object.fromEntries(
      Object.entries(atBackup.tables).map(([table, digest]) => [
        table,
        Number(digest.split(':')[0]),
      ]),
    );
    // The fingerprint leaves out the limits' counts (not data); the manifest counts every table.
    expect(manifest.database.tables).toEqual({
      ...rowsAtBackup,
      rate_limit_hits: expect.any(Number),
    });
    expect(manifest.database.tables.products).toBe(1);
    // The photos the database knows, each in its three widths: the restored database would
    // never sweep a file it has no row for.
    expect(manifest.photos.files.map((f) => f.name)).toEqual(atBackup.photos);
    expect(atBackup.photos).toHaveLength(photoUrls.length * 3);
    expect(atBackup.photos).not.toContain(UNKNOWN_PHOTO);
    expect(manifest.photos.missing).toEqual([]);
    expect(manifest.secrets.files.map((f) => f.name)).toEqual(Object.keys(atBackup.secrets).sort());
    expect(Object.keys(atBackup.secrets)).toContain('imei-key');
  });

  it('backs up a stopped server by opening its directory', async () => {
    const out = path.join(root, 'while-stopped');
    const backup = await run('backup', ['--out', out]);
    expect(backup.code, backup.output).toBe(0);
    const dir = backupDirIn(backup.output);
    expect(path.dirname(dir)).toBe(out);
    expect((await manifestOf(dir)).database.tables).toEqual(
      (await manifestOf(backupDir)).database.tables,
    );
  }, 60_000);

  it('refuses to write a backup inside what it backs up', async () => {
    const backup = await run('backup', ['--out', path.join(dataDir, 'backups')]);
    expect(backup.code).toBe(1);
    expect(backup.output).toMatch(/inside DATA_DIR/);
    expect(await readdir(dataDir)).not.toContain('backups');
  });
});

describe('npm run restore', () => {
  it('brings back the data as at the backup, nothing missing and nothing extra, and keeps the replaced data aside', async () => {
    await start();
    const latecomer = await account('seller');
    const latePhoto = await uploadPhoto(latecomer, '#33c');
    await listPhone(latecomer, [latePhoto]);
    const [phone] = (await call('GET', `/products?email=${seller.email}`, undefined, seller.bearer))
      .json;
    expect(
      (await call('DELETE', `/products?id=${phone._id}`, undefined, seller.bearer)).status,
    ).toBe(200);
    await stop();
    // A photo lost from the disk since the backup.
    const lost = atBackup.photos[0] as string;
    await rm(path.join(dataDir, 'uploads', lost));
    const changed = await stateOf(dataDir);
    expect(changed.tables).not.toEqual(atBackup.tables);

    const restore = await run('restore', [backupDir]);
    expect(restore.code, restore.output).toBe(0);
    expect(await stateOf(dataDir)).toEqual(atBackup);
    const aside = asideIn(restore.output);
    expect(path.dirname(aside)).toBe(dataDir);
    expect((await readdir(path.join(aside, 'uploads'))).sort()).toEqual(changed.photos);
    expect(await restoreLeftovers(dataDir)).toEqual([path.basename(aside)]);

    await start();
    // The same secrets: a token made before the backup is good, and the sealed IMEI reads.
    const own = await call('GET', `/products?email=${seller.email}`, undefined, seller.bearer);
    expect(own.status).toBe(200);
    expect(own.json.map((p: { imei: string }) => p.imei)).toEqual([sellerImei]);
    for (const url of photoUrls) expect((await fetch(`${server?.url}${url}`)).status).toBe(200);
    const signIn = await call('POST', '/auth/sign-in/email', {
      email: latecomer.email,
      password: GOOD_PASSWORD,
    });
    expect(signIn.status).toBe(401);
    expect((await fetch(`${server?.url}${latePhoto}`)).status).toBe(404);
    await stop();
  }, 180_000);

  it('refuses while the server runs, and changes nothing', async () => {
    await start();
    const before = (await readdir(dataDir)).sort();
    const restore = await run('restore', [backupDir]);
    expect(restore.code).toBe(1);
    expect(restore.output).toMatch(/in use by process \d+; stop that server first/);
    expect(restore.output).toMatch(/Nothing was changed/);
    expect((await readdir(dataDir)).sort()).toEqual(before);
    expect((await fetch(`${server?.url}/api/health`)).status).toBe(200);
    await stop();
  }, 60_000);

  it('refuses a backup that is damaged, cut off or added to, and changes nothing', async () => {
    const before = {
      top: (await readdir(dataDir)).sort(),
      photos: (await readdir(path.join(dataDir, 'uploads'))).sort(),
    };
    const copy = path.join(root, 'damaged');
    const tries: [string, (dir: string) => Promise<void>, RegExp][] = [
      [
        'a photo with other bytes',
        async (dir) => {
          const file = path.join(dir, 'uploads', atBackup.photos[1] as string);
          const bytes = await readFile(file);
          bytes[bytes.length - 1] = (bytes.at(-1) ?? 0) ^ 0xff;
          await writeFile(file, bytes);
        },
        /does not match the manifest's sha256: the backup is damaged/,
      ],
      [
        'a missing secret',
        (dir) => rm(path.join(dir, 'secrets', 'imei-key')),
        /imei-key is missing/,
      ],
      [
        'a file it never had',
        (dir) => writeFile(path.join(dir, 'uploads', 'stranger.webp'), 'x'),
        /stranger\.webp is not in the manifest/,
      ],
      ['no manifest', (dir) => rm(path.join(dir, 'manifest.json')), /has no manifest\.json/],
    ];
    for (const [what, damage, message] of tries) {
      await rm(copy, { recursive: true, force: true });
      await cp(backupDir, copy, { recursive: true });
      await damage(copy);
      const restore = await run('restore', [copy]);
      expect(restore.code, what).toBe(1);
      expect(restore.output, what).toMatch(message);
      expect((await readdir(dataDir)).sort(), what).toEqual(before.top);
      expect((await readdir(path.join(dataDir, 'uploads'))).sort(), what).toEqual(before.photos);
    }
  }, 120_000);

  it('finishes a restore that was cut off among its renames when run again', async () => {
    const target = path.join(root, 'cut-off');
    const oldPhoto = `${'ab'.repeat(16)}-320.webp`;
    await mkdir(path.join(target, 'uploads'), { recursive: true });
    await writeFile(path.join(target, 'uploads', oldPhoto), 'an older photo');
    const first = await run('restore', [backupDir], { DATA_DIR: target });
    expect(first.code, first.output).toBe(0);
    const aside = asideIn(first.output);

    // As the restore leaves it when cut off after swapping the database and the secrets, while
    // moving the photos: the old ones already aside, the restored ones still staged.
    await mkdir(path.join(target, RESTORE_STAGING));
    await rename(path.join(target, 'uploads'), path.join(target, RESTORE_STAGING, 'uploads'));
    await writeFile(
      path.join(target, RESTORE_JOURNAL),
      JSON.stringify({
        backup: backupDir,
        aside: path.basename(aside),
        parts: ['db', 'secrets', 'uploads'],
      }),
    );

    const again = await run('restore', [backupDir], { DATA_DIR: target });
    expect(again.code, again.output).toBe(0);
    expect(again.output).toContain(`Finished the restore of ${backupDir}, which had been cut off.`);
    expect(await stateOf(target)).toEqual(atBackup);
    expect(await readdir(path.join(aside, 'uploads'))).toEqual([oldPhoto]);
    expect(await restoreLeftovers(target)).toEqual([path.basename(aside)]);
  }, 120_000);
});

describe('on PostgreSQL', () => {
  it('both commands refuse and point at docs/backups.md, writing nothing', async () => {
    const postgres = { DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none' };
    for (const [script, args] of [
      ['backup', []],
      ['restore', [backupDir]],
    ] as const) {
      const result = await run(script, [...args], postgres);
      expect(result.code, result.output).toBe(1);
      expect(result.output).toMatch(/DATABASE_URL is set: the database is PostgreSQL/);
      expect(result.output).toContain('docs/backups.md');
    }
    expect(await readdir(`${dataDir}-backups`)).toEqual([path.basename(backupDir)]);
  });
});
