/**
 * Photos in object storage (issue 21, decision 030): with S3_BUCKET the image host keeps its
 * WebP variants in an S3-compatible bucket (s3rver on loopback), and every server answers the
 * same /images/ URLs from it, or sends browsers to the CDN of S3_PUBLIC_URL. A bucket that does
 * not answer stops the start; `npm run photos:to-s3` moves a server's photos over.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/server-process';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { LocalImageStore } from '../../src/server/images/image-store';
import { BucketUnreachableError, STORAGE_DOWN } from '../../src/server/images/s3-image-store';
import { type Account, createAccount } from '../helpers/accounts';
import { uploadPhoto } from '../helpers/multipart';
import { runScript } from '../helpers/run-script';
import { type S3Server, startS3Server } from '../helpers/s3-server';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const WIDTHS = [320, 640, 960];
/** Every server of a cluster has the same secrets; each here has a disk (DATA_DIR) of its own. */
const SECRETS = {
  BETTER_AUTH_SECRET: 'a-secret-every-server-shares-000001',
  JWT_SECRET: 'a-secret-every-server-shares-000002',
  IMEI_KEY: 'a-secret-every-server-shares-000003',
};

let s3: S3Server;
let t: TestApp;
let seller: Account;
let bucket: S3Client;
let colour = 0;
/** What a test started besides `t`: other servers, and the directories they and the copy used. */
const servers: FastifyInstance[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  s3 = await startS3Server({ bucket: 'photos' });
  t = await buildTestApp({ ...s3.env, ...SECRETS });
  seller = await createAccount(t.app, 'seller');
  bucket = new S3Client({
    region: 'us-east-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
});
afterAll(async () => {
  for (const server of servers) await server.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  await t?.close();
  bucket?.destroy();
  await s3?.close();
});

/** Another server on the same database and bucket, with its own DATA_DIR and `env` added. */
async function anotherServer(env: Record<string, string> = {}): Promise<FastifyInstance> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'phone-market-data-'));
  dirs.push(dataDir);
  const app = await buildApp({
    config: loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      ...s3.env,
      ...SECRETS,
      ...env,
    }),
    database: t.database,
  });
  servers.push(app);
  return app;
}

/**
 * A photo of a colour no other test uses (steps of 16, as JPEG would store colours a step apart
 * alike), with the camera's EXIF and a GPS position.
 */
const newPhoto = () => {
  const background = { r: 16 * (colour % 16), g: 90, b: 16 * Math.floor(colour / 16) };
  colour++;
  return sharp({ create: { width: 1200, height: 900, channels: 3, background } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PhoneCo' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '47/1 36/1 0/1' },
    })
    .toBuffer();
};

async function upload(app: FastifyInstance = t.app, bytes?: Buffer): Promise<string> {
  const res = await uploadPhoto(app, seller.bearer, bytes ?? (await newPhoto()));
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.url;
}

/** The /images/ URLs of every width of the photo of `url`. */
const widthsOf = (url: string) => WIDTHS.map((w) => url.replace(/-\d+\.webp$/, `-${w}.webp`));
const nameOf = (url: string) => url.slice('/images/'.length);

async function objectIn(url: string) {
  const object = await bucket.send(new GetObjectCommand({ Bucket: s3.bucket, Key: nameOf(url) }));
  return { ...object, bytes: Buffer.from(await (object.Body?.transformToByteArray() ?? [])) };
}

async function inBucket(url: string): Promise<boolean> {
  try {
    await bucket.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: nameOf(url) }));
    return true;
  } catch (err) {
    if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) {
      return false;
    }
    throw err;
  }
}

describe('photos in the bucket', () => {
  it('keeps every width in the bucket, none on the disk, and serves each at its /images/ URL', async () => {
    const url = await upload();
    expect(url).toMatch(/^\/images\/[0-9a-f]{32}-640\.webp$/);
    expect(await readdir(path.join(t.dataDir, 'uploads')).catch(() => [])).toEqual([]);

    for (const [i, width] of WIDTHS.entries()) {
      const variant = widthsOf(url)[i] as string;
      const res = await t.app.inject(variant);
      expect(res.statusCode, variant).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['cache-control']).toBe(IMMUTABLE);
      expect(res.headers.etag).toMatch(/^"[^"]+"$/);
      expect(res.rawPayload.equals((await objectIn(variant)).bytes)).toBe(true);
      expect((await sharp(res.rawPayload).metadata()).width).toBe(width);

      const head = await t.app.inject({ method: 'HEAD', url: variant });
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-type']).toBe('image/webp');
      expect(head.headers['content-length']).toBe(String(res.rawPayload.length));
      expect(head.headers.etag).toBe(res.headers.etag);
      expect(head.rawPayload).toHaveLength(0);
    }
  });

  it('stores WebP with no metadata left, typed and cached as immutable in the bucket', async () => {
    const original = await newPhoto();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const url = await upload(t.app, original);
    for (const variant of widthsOf(url)) {
      const object = await objectIn(variant);
      expect(object.ContentType).toBe('image/webp');
      expect(object.CacheControl).toBe(IMMUTABLE);
      const meta = await sharp(object.bytes).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.iptc).toBeUndefined();
      expect(object.bytes.includes(Buffer.from('PhoneCo'))).toBe(false);
    }
  });

  it('answers 304 to a browser that holds the photo', async () => {
    const url = await upload();
    const first = await t.app.inject(url);
    const again = await t.app.inject({ url, headers: { 'if-none-match': first.headers.etag } });
    expect(again.statusCode).toBe(304);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['cache-control']).toBe(IMMUTABLE);
    expect(again.rawPayload).toHaveLength(0);

    const changed = await t.app.inject({ url, headers: { 'if-none-match': '"another"' } });
    expect(changed.statusCode).toBe(200);
  });

  it('answers a photo read lately from memory, without asking the bucket again', async () => {
    const url = await upload();
    const first = await t.app.inject(url);
    expect(first.statusCode).toBe(200);
    const asked = s3.requests.length;
    const again = await t.app.inject(url);
    const held = await t.app.inject({ url, headers: { 'if-none-match': first.headers.etag } });
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(held.statusCode).toBe(304);
    expect(s3.requests.slice(asked)).toEqual([]);
  });

  it('serves a photo uploaded through one server from another with its own disk, and back', async () => {
    const other = await anotherServer();
    const url = await upload(t.app);
    for (const variant of widthsOf(url)) {
      const [here, there] = await Promise.all([t.app.inject(variant), other.inject(variant)]);
      expect(there.statusCode, variant).toBe(200);
      expect(there.rawPayload.equals(here.rawPayload)).toBe(true);
    }
    const back = await upload(other);
    expect((await t.app.inject(back)).statusCode).toBe(200);
  });

  it('removes the objects of a photo the sweep finds on no phone', async () => {
    const url = await upload();
    expect(await inBucket(url)).toBe(true);
    const dayAndAHourLater = new Date(Date.now() + 25 * 60 * 60 * 1000);
    expect(await t.app.loosePhotos.sweep(t.database.db, dayAndAHourLater)).toBeGreaterThan(0);
    for (const variant of widthsOf(url)) {
      expect(await inBucket(variant), variant).toBe(false);
      const res = await t.app.inject(variant);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: `Not found: GET ${variant}` });
    }
  });
});

describe('names that are not a stored photo', () => {
  const hash = 'a'.repeat(32);

  it('answers a photo the bucket does not have with a 404 and its message', async () => {
    const res = await t.app.inject(`/images/${hash}-640.webp`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: `Not found: GET /images/${hash}-640.webp` });
  });

  it.each([
    ['another width', `/images/${hash}-641.webp`],
    ['upper-case hex', `/images/${hash.toUpperCase()}-640.webp`],
    ['a short hash', `/images/${hash.slice(1)}-640.webp`],
    ['another type', `/images/${hash}-640.png`],
    ['a temporary file', `/images/${hash}-640.webp.0b9c.tmp`],
    ['a climb out by encoded slashes', '/images/..%2F..%2Fetc%2Fpasswd'],
    ['a climb out by encoded dots', '/images/%2e%2e%2fpackage.json'],
    ['another key of the bucket', '/images/secrets%2Fkeys.txt'],
    ['a path below the prefix', `/images/photos/${hash}-640.webp`],
    ['a name of 300 characters', `/images/${'a'.repeat(300)}`],
    ['no name', '/images/'],
  ])('answers %s with a 404, never asking the bucket', async (_case, url) => {
    const asked = s3.requests.length;
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      if (method === 'GET') expect(res.json().message).toMatch(/^Not found: GET \//);
    }
    expect(s3.requests.slice(asked)).toEqual([]);
  });

  it('answers a NUL byte in the name as the input guard does, never asking the bucket', async () => {
    const asked = s3.requests.length;
    const res = await t.app.inject(`/images/${hash}-640.webp%00`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/NUL/);
    expect(s3.requests.slice(asked)).toEqual([]);
  });
});

describe('S3_PUBLIC_URL, a CDN in front of the bucket', () => {
  it('redirects the /images/ URLs there, without asking the bucket, and lets pages show them', async () => {
    const cdn = await anotherServer({ S3_PUBLIC_URL: 'https://cdn.example.com/phone-photos/' });
    const url = await upload();
    const asked = s3.requests.length;
    const res = await cdn.inject(url);
    expect(res.statusCode).toBe(308);
    expect(res.headers.location).toBe(`https://cdn.example.com/phone-photos/${nameOf(url)}`);
    expect(s3.requests.slice(asked)).toEqual([]);

    const imgSrc = /img-src ([^;]+)/.exec(String(res.headers['content-security-policy']))?.[1];
    expect(imgSrc?.split(' ')).toContain('https://cdn.example.com');
    const hostile = await cdn.inject('/images/..%2Fsecrets');
    expect(hostile.statusCode).toBe(404);
  });
});

describe('a bucket that does not answer', () => {
  const start = (env: Record<string, string>) =>
    buildApp({
      config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: t.dataDir, ...env }),
      database: t.database,
    });

  it('stops the start with a message naming S3_BUCKET and S3_ENDPOINT', async () => {
    const endpoint = `http://127.0.0.1:${await freePort()}`;
    const failed = start({ ...s3.env, ...SECRETS, S3_ENDPOINT: endpoint });
    await expect(failed).rejects.toBeInstanceOf(BucketUnreachableError);
    await expect(failed).rejects.toThrow(
      new RegExp(`S3_BUCKET, S3_ENDPOINT: the bucket "photos" at ${endpoint} cannot be reached`),
    );
  });

  it('stops the start when the bucket is not there, or refuses the keys', async () => {
    await expect(start({ ...s3.env, ...SECRETS, S3_BUCKET: 'no-such-bucket' })).rejects.toThrow(
      `S3_BUCKET, S3_ENDPOINT: there is no bucket "no-such-bucket" at ${s3.endpoint}`,
    );
    await expect(
      start({ ...s3.env, ...SECRETS, S3_ACCESS_KEY_ID: 'SOMEONE', S3_SECRET_ACCESS_KEY: 'ELSE' }),
    ).rejects.toThrow(/S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: the bucket "photos" .* refuses/);
  });
});

describe('a bucket that stops answering while the server runs', () => {
  it('answers photos and uploads with a 503 that says so', async () => {
    const gone = await startS3Server({ bucket: 'photos' });
    const app = await anotherServer(gone.env);
    await gone.close();
    const photo = await app.inject(`/images/${'b'.repeat(32)}-640.webp`);
    expect(photo.statusCode).toBe(503);
    expect(photo.json()).toEqual({ message: STORAGE_DOWN });
    const upload = await uploadPhoto(app, seller.bearer, await newPhoto());
    expect(upload.statusCode).toBe(503);
    expect(upload.json()).toEqual({ message: STORAGE_DOWN });
  });
});

/** `npm run photos:to-s3` as the operator runs it, with the server's environment. */
const photosToS3 = (env: Record<string, string>) => runScript('scripts/photos-to-s3.ts', [], env);

describe('npm run photos:to-s3', () => {
  it('copies the photos of DATA_DIR/uploads, skips those already there, and can run again', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'phone-market-data-'));
    dirs.push(dataDir);
    const uploads = path.join(dataDir, 'uploads');
    const local = new LocalImageStore(uploads);
    const [already, onlyLocal] = [await newPhoto(), await newPhoto()];
    await local.save(already);
    const { url } = await local.save(onlyLocal);
    await upload(t.app, already);
    await writeFile(path.join(uploads, `${nameOf(url)}.0b9c.tmp`), 'half a write');
    expect((await t.app.inject(url)).statusCode).toBe(404);

    const first = await photosToS3({ DATA_DIR: dataDir, ...s3.env });
    expect(first.output).toBe(
      `Copied 3 photo files from ${uploads} to bucket "photos"; skipped 3 already there.\nNot photos, left where they are: 1 of the files in ${uploads}.\n`,
    );
    expect(first.code).toBe(0);
    for (const variant of widthsOf(url)) {
      const res = await t.app.inject(variant);
      expect(res.statusCode, variant).toBe(200);
      expect(res.headers['cache-control']).toBe(IMMUTABLE);
      expect((await objectIn(variant)).ContentType).toBe('image/webp');
    }

    const again = await photosToS3({ DATA_DIR: dataDir, ...s3.env });
    expect(again.code).toBe(0);
    expect(again.output).toMatch(/^Copied 0 photo files .*; skipped 6 already there\./);
  });

  it('refuses without S3_BUCKET, saying so', async () => {
    const res = await photosToS3({ DATA_DIR: t.dataDir });
    expect(res.code).toBe(1);
    expect(res.output).toMatch(/^S3_BUCKET is not set/);
  });
});
