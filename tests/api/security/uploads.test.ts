/**
 * Hostile photos: each is refused with a message a seller can act on, and nothing is stored.
 * A real photo carrying extra bytes (a script after the JPEG's end, as phones append motion
 * clips) is kept, but only its pixels survive re-encoding (decision 012, security proofs).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, createAccount } from '../../helpers/accounts';
import { multipartFile, uploadPhoto } from '../../helpers/multipart';
import { buildTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
let seller: Account;
let jpeg: Buffer;
let png: Buffer;

beforeAll(async () => {
  t = await buildTestApp();
  seller = await createAccount(t.app, 'seller');
  const photo = sharp({
    create: {
      width: 800,
      height: 600,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  });
  jpeg = await photo.clone().jpeg().toBuffer();
  png = await photo.clone().png().toBuffer();
});
afterAll(() => t.close());

const uploadsDir = () => path.join(t.dataDir, 'uploads');
const storedFiles = async () => (await readdir(uploadsDir()).catch(() => [])).sort();

const upload = (bytes: Buffer) => uploadPhoto(t.app, seller.bearer, bytes);

/** A PNG chunk with its length and checksum, so only what we mean to be wrong is wrong. */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG whose header claims 100,000 × 100,000 pixels: a few bytes that would inflate to 30 GB. */
function pngBomb(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(100_000, 0);
  ihdr.writeUInt32BE(100_000, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', zlib.deflateSync(Buffer.alloc(1024))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The JPEG with its frame header (SOF0) rewritten to claim 60,000 × 60,000 pixels. */
function jpegBomb(): Buffer {
  const bytes = Buffer.from(jpeg);
  const sof = bytes.indexOf(Buffer.from([0xff, 0xc0]));
  bytes.writeUInt16BE(60_000, sof + 5);
  bytes.writeUInt16BE(60_000, sof + 7);
  return bytes;
}

const SCRIPT = '<script>alert(document.cookie)</script>';
const DAMAGED = /damaged or has too many pixels/;
const NOT_AN_IMAGE = /not a JPEG, PNG or WebP image/;

describe('hostile uploads', () => {
  it.each([
    ['a PNG decompression bomb', () => pngBomb(), /too many pixels/],
    ['a JPEG decompression bomb', () => jpegBomb(), /too many pixels/],
    ['a JPEG cut off halfway', () => jpeg.subarray(0, jpeg.length / 2), DAMAGED],
    ['a PNG cut off halfway', () => png.subarray(0, png.length / 2), DAMAGED],
    [
      'JPEG magic bytes on a PNG',
      () => Buffer.concat([jpeg.subarray(0, 3), png.subarray(3)]),
      NOT_AN_IMAGE,
    ],
    [
      'PNG magic bytes on text',
      () => Buffer.concat([png.subarray(0, 8), Buffer.from('hello')]),
      NOT_AN_IMAGE,
    ],
    [
      'an HTML page with a JPEG inside',
      () => Buffer.concat([Buffer.from(`<html>${SCRIPT}`), jpeg]),
      NOT_AN_IMAGE,
    ],
    [
      'a PDF with a JPEG inside',
      () => Buffer.concat([Buffer.from('%PDF-1.7\n'), jpeg]),
      NOT_AN_IMAGE,
    ],
    [
      'an SVG with a script',
      () =>
        Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)">${SCRIPT}</svg>`),
      NOT_AN_IMAGE,
    ],
    [
      'an SVG entity bomb',
      () =>
        Buffer.from(
          `<?xml version="1.0"?><!DOCTYPE s [<!ENTITY a "aaaaaaaaaa">${Array.from(
            { length: 9 },
            (_, i) =>
              `<!ENTITY ${'b'.repeat(i + 1)} "${`&${i === 0 ? 'a' : 'b'.repeat(i)};`.repeat(10)}">`,
          ).join('')}]><svg xmlns="http://www.w3.org/2000/svg"><text>&bbbbbbbbb;</text></svg>`,
        ),
      NOT_AN_IMAGE,
    ],
    ['an empty file', () => Buffer.alloc(0), /empty/],
  ])('refuses %s with a clear message and stores nothing', async (_name, bytes, message) => {
    const before = await storedFiles();
    const res = await upload(bytes());
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
    expect(await storedFiles()).toEqual(before);
  });

  it('refuses a body over 10 MB, and a second file, with a message', async () => {
    const before = await storedFiles();
    const huge = await upload(Buffer.concat([jpeg, Buffer.alloc(10 * 1024 * 1024)]));
    expect(huge.statusCode).toBe(400);
    expect(huge.json().message).toMatch(/larger than 10 MB/);

    const a = multipartFile('image', 'a.jpg', jpeg, 'image/jpeg');
    const boundary = /boundary=(.+)$/.exec(a.headers['content-type'])?.[1];
    const second = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="b.jpg"\r\nContent-Type: image/jpeg\r\n\r\nxx\r\n--${boundary}--\r\n`,
    );
    const two = await t.app.inject({
      method: 'POST',
      url: '/api/images',
      headers: { ...seller.bearer, ...a.headers },
      payload: Buffer.concat([
        a.payload.subarray(0, a.payload.length - `--${boundary}--\r\n`.length),
        second,
      ]),
    });
    expect(two.statusCode).toBe(400);
    expect(two.json().message).toMatch(/^image: /);
    expect(await storedFiles()).toEqual(before);
  });

  it('refuses a JSON body sent where a photo is expected, and one too large to read', async () => {
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/images',
      headers: seller.bearer,
      payload: { image: jpeg.toString('base64') },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toMatch(/multipart\/form-data/);
    const tooLarge = await t.app.inject({
      method: 'POST',
      url: '/api/images',
      headers: { ...seller.bearer, 'content-type': 'application/json' },
      payload: JSON.stringify({ image: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().message).toEqual(expect.any(String));
  });

  it('keeps only the pixels of a JPEG that carries a script after its end', async () => {
    const polyglot = Buffer.concat([jpeg, Buffer.from(SCRIPT)]);
    const res = await upload(polyglot);
    expect(res.statusCode).toBe(200);
    const hash = /\/images\/([0-9a-f]+)-/.exec(res.json().data.url)?.[1] ?? '-';
    const variants = (await storedFiles()).filter((f) => f.startsWith(hash));
    expect(variants).toHaveLength(3);
    for (const file of variants) {
      const stored = await readFile(path.join(uploadsDir(), file));
      expect(stored.includes(Buffer.from('<script'))).toBe(false);
      expect((await sharp(stored).metadata()).format).toBe('webp');
    }
    const served = await t.app.inject(res.json().data.url);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('malformed forms', () => {
  it.each([
    ['a JSON body under a multipart type', '{"a":1}', 'multipart/form-data; boundary=x'],
    [
      'a form cut off mid-part',
      '--x\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\n\r\nabc',
      'multipart/form-data; boundary=x',
    ],
    ['a form with no boundary', '--x--\r\n', 'multipart/form-data'],
  ])('answers %s with a message', async (_name, payload, type) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/images',
      headers: { ...seller.bearer, 'content-type': type },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^(The photo|Send the photo)[^:]*\.$/);
  });
});
