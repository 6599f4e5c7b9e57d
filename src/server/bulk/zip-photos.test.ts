import { mkdtemp, readdir, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { photoOf, type ZipEntry, zipOf } from '../../../tests/helpers/zip-files';
import { BULK_ZIP_MAX_BYTES, BULK_ZIP_MAX_ENTRIES } from '../../shared/bulk';
import { InvalidImageError } from '../images/image-store';
import { readZipPhotos } from './zip-photos';

let dir: string;
let jpeg: Buffer;
let png: Buffer;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'bulk-zip-'));
  jpeg = await photoOf('jpeg');
  png = await photoOf('png', { r: 20, g: 90, b: 200 });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

let files = 0;
const zipFile = async (entries: readonly ZipEntry[] | Buffer) => {
  const file = path.join(dir, `upload-${files++}.zip`);
  await writeFile(file, Buffer.isBuffer(entries) ? entries : zipOf(entries));
  return file;
};
/** A `take` that answers a URL per name, recording what it was given. */
const taker = () => {
  const taken: { name: string; bytes: Buffer }[] = [];
  const take = async (bytes: Buffer, name: string) => {
    taken.push({ name, bytes });
    return `/images/${name}`;
  };
  return { take, taken };
};
const read = async (entries: readonly ZipEntry[] | Buffer, wanted: string[]) => {
  const { take, taken } = taker();
  const answer = await readZipPhotos(await zipFile(entries), wanted, take);
  if (!answer.ok) throw new Error(answer.message);
  return { photos: Object.fromEntries(answer.photos), taken };
};
const refusal = async (entries: readonly ZipEntry[] | Buffer) => {
  const answer = await readZipPhotos(await zipFile(entries), ['a.jpg'], taker().take);
  if (answer.ok) throw new Error('the ZIP was read');
  return answer.message;
};

describe("a bulk listing's ZIP of photos", () => {
  it('reads the photos rows name by base name in any case, only those, each checked and taken', async () => {
    const progress = vi.fn(async () => {});
    const { take, taken } = taker();
    const file = await zipFile([
      { name: 'phones/' },
      { name: 'phones/IMG_0042.JPG', data: jpeg },
      { name: 'phones/back.png', data: png, method: 'stored' },
      { name: 'phones/unnamed.jpg', data: Buffer.from('never read') },
    ]);
    const answer = await readZipPhotos(
      file,
      ['img_0042.jpg', 'Back.png', 'IMG_0042.jpg'],
      take,
      progress,
    );
    expect(answer).toEqual({
      ok: true,
      photos: new Map([
        ['img_0042.jpg', { ok: true, url: '/images/img_0042.jpg' }],
        ['back.png', { ok: true, url: '/images/Back.png' }],
      ]),
    });
    expect(taken.map((t) => t.name)).toEqual(['img_0042.jpg', 'Back.png']);
    expect(taken[0]?.bytes.equals(jpeg)).toBe(true);
    expect(progress).toHaveBeenCalledTimes(2);
  });

  it('says a photo named by a row is not in the ZIP', async () => {
    const { photos } = await read([{ name: 'a.jpg', data: jpeg }], ['a.jpg', 'Missing.jpg']);
    expect(photos['missing.jpg']).toEqual({
      ok: false,
      message: 'Photos: Missing.jpg: is not in the ZIP',
    });
  });

  it('refuses a name that leaves the ZIP, failing only its photo, and writes nothing', async () => {
    const { photos, taken } = await read(
      [
        { name: '../evil.jpg', data: jpeg },
        { name: 'good.jpg', data: png },
      ],
      ['evil.jpg', 'good.jpg'],
    );
    expect(photos['evil.jpg']).toEqual({
      ok: false,
      message:
        'Photos: evil.jpg: was refused, as the ZIP names it with a path that leaves the ZIP (../evil.jpg); zip the photos again from their folder',
    });
    expect(photos['good.jpg']).toMatchObject({ ok: true });
    expect(taken.map((t) => t.name)).toEqual(['good.jpg']);
    expect((await readdir(dir)).every((f) => f.endsWith('.zip'))).toBe(true);
  });

  it.each([
    ['a backslash', 'photos\\..\\x.jpg', /with a backslash.*\(photos\\\.\.\\x\.jpg\)/],
    ['a leading /', '/etc/x.jpg', /from the root of a disk \(\/etc\/x\.jpg\)/],
    ['a drive', 'C:/x.jpg', /with a drive \(C:\/x\.jpg\)/],
    ['a .. segment inside', 'a/../../x.jpg', /leaves the ZIP \(a\/\.\.\/\.\.\/x\.jpg\)/],
    ['a control character', 'dir\u0007/x.jpg', /control character \(dir\uFFFD\/x\.jpg\)/],
  ])('refuses a name with %s', async (_, name, says) => {
    const { photos, taken } = await read([{ name, data: jpeg }], ['x.jpg']);
    expect(photos['x.jpg']).toEqual({ ok: false, message: expect.stringMatching(says) });
    expect(taken).toEqual([]);
  });

  it('ignores an unsafe name beside a safe file of the same name', async () => {
    const { photos, taken } = await read(
      [
        { name: '../x.jpg', data: png },
        { name: 'x.jpg', data: jpeg },
      ],
      ['x.jpg'],
    );
    expect(photos['x.jpg']).toMatchObject({ ok: true });
    expect(taken[0]?.bytes.equals(jpeg)).toBe(true);
  });

  it('fails a base name the ZIP holds twice, naming both paths', async () => {
    const { photos, taken } = await read(
      [
        { name: 'a/x.jpg', data: jpeg },
        { name: 'b/X.JPG', data: png },
      ],
      ['x.jpg'],
    );
    expect(photos['x.jpg']).toEqual({
      ok: false,
      message: 'Photos: x.jpg: is in the ZIP 2 times (a/x.jpg, b/X.JPG); keep one',
    });
    expect(taken).toEqual([]);
  });

  it("passes over folders and a Mac's extras", async () => {
    const { photos } = await read(
      [
        { name: 'x.jpg/' },
        { name: '__MACOSX/x.jpg', data: Buffer.from('resource fork') },
        { name: '__MACOSX/._x.jpg', data: Buffer.from('resource fork') },
        { name: 'photos/._x.jpg', data: Buffer.from('resource fork') },
        { name: 'photos/x.jpg', data: jpeg },
      ],
      ['x.jpg', '._x.jpg'],
    );
    expect(photos['x.jpg']).toMatchObject({ ok: true });
    expect(photos['._x.jpg']).toMatchObject({
      ok: false,
      message: 'Photos: ._x.jpg: is not in the ZIP',
    });
  });

  it('refuses an encrypted photo before unpacking it', async () => {
    const { photos, taken } = await read(
      [{ name: 'x.jpg', data: jpeg, encrypted: true }],
      ['x.jpg'],
    );
    expect(photos['x.jpg']).toEqual({
      ok: false,
      message: 'Photos: x.jpg: is encrypted; zip the photos again without a password',
    });
    expect(taken).toEqual([]);
  });

  it('refuses a photo declaring more than 10 MB before unpacking it', async () => {
    const { photos } = await read(
      [{ name: 'x.jpg', data: jpeg, declaredSize: 10 * 1024 * 1024 + 1 }],
      ['x.jpg'],
    );
    expect(photos['x.jpg']).toEqual({
      ok: false,
      message: 'Photos: x.jpg: is larger than 10 MB, the most a photo may be',
    });
  });

  it('stops unpacking a bomb of zeros the moment it passes the size it declares', async () => {
    const bomb = Buffer.alloc(64 * 1024 * 1024);
    const { photos, taken } = await read(
      [
        { name: 'bomb.jpg', data: bomb, declaredSize: 1024 },
        { name: 'x.jpg', data: jpeg },
      ],
      ['bomb.jpg', 'x.jpg'],
    );
    expect(photos['bomb.jpg']).toEqual({
      ok: false,
      message: 'Photos: bomb.jpg: unpacks to more than it declares (a damaged or hostile ZIP)',
    });
    expect(photos['x.jpg']).toMatchObject({ ok: true });
    expect(taken.map((t) => t.name)).toEqual(['x.jpg']);
  });

  it('fails a damaged entry alone', async () => {
    const zip = zipOf([
      { name: 'x.jpg', data: jpeg },
      { name: 'y.png', data: png, method: 'stored' },
    ]);
    // The deflated bytes of x.jpg, just after its 30-byte header and name, made nonsense.
    zip.fill(0xff, 30 + 'x.jpg'.length, 30 + 'x.jpg'.length + 8);
    const { photos } = await read(zip, ['x.jpg', 'y.png']);
    expect(photos['x.jpg']).toEqual({
      ok: false,
      message: 'Photos: x.jpg: is damaged in the ZIP; zip the photos again',
    });
    expect(photos['y.png']).toMatchObject({ ok: true });
  });

  it('checks each photo by its bytes, not its name', async () => {
    const { photos, taken } = await read(
      [{ name: 'notes.jpg', data: Buffer.from('a shopping list') }],
      ['notes.jpg'],
    );
    expect(photos['notes.jpg']).toEqual({
      ok: false,
      message: 'Photos: notes.jpg: the file is not a JPEG, PNG or WebP image',
    });
    expect(taken).toEqual([]);
  });

  it("fails a photo the store refuses, with the store's words, and lets other errors through", async () => {
    const file = await zipFile([{ name: 'x.jpg', data: jpeg }]);
    const refusing = async () => {
      throw new InvalidImageError('The image is damaged or has too many pixels to process.');
    };
    expect(await readZipPhotos(file, ['x.jpg'], refusing)).toEqual({
      ok: true,
      photos: new Map([
        [
          'x.jpg',
          {
            ok: false,
            message: 'Photos: x.jpg: the image is damaged or has too many pixels to process',
          },
        ],
      ]),
    });
    const failing = async (): Promise<string> => {
      throw new Error('the disk is full');
    };
    await expect(readZipPhotos(file, ['x.jpg'], failing)).rejects.toThrow('the disk is full');
  });

  it('refuses a file that is no ZIP, or whose directory is cut off', async () => {
    const message =
      'The photos file is not a ZIP, or its directory is damaged; zip the photos again.';
    expect(await refusal(Buffer.from('Category,Model name\r\n'))).toBe(message);
    const zip = zipOf([
      { name: 'a.jpg', data: jpeg },
      { name: 'b.jpg', data: jpeg },
    ]);
    // The end record still points at a directory, whose first header is now nonsense.
    const directoryAt = zip.readUInt32LE(zip.length - 6);
    zip.fill(0, directoryAt, directoryAt + 4);
    expect(await refusal(zip)).toBe(message);
  });

  it(`refuses more than ${BULK_ZIP_MAX_ENTRIES} entries`, async () => {
    const entries = Array.from({ length: BULK_ZIP_MAX_ENTRIES + 1 }, (_, i) => ({
      name: `f${i}/`,
    }));
    expect(await refusal(entries)).toBe(
      `The ZIP holds ${BULK_ZIP_MAX_ENTRIES + 1} files, and it may hold at most ${BULK_ZIP_MAX_ENTRIES}; zip only the phones' photos, or split the phones into two uploads.`,
    );
  });

  it('refuses a ZIP over 200 MB by its size alone', async () => {
    const file = await zipFile([{ name: 'a.jpg', data: jpeg }]);
    // A sparse file: its size is what is judged, and no disk is spent on it.
    await truncate(file, BULK_ZIP_MAX_BYTES + 1);
    const answer = await readZipPhotos(file, ['a.jpg'], taker().take);
    expect(answer).toEqual({
      ok: false,
      message:
        'The ZIP is 201 MB, and it may be at most 200 MB; split the phones into two uploads.',
    });
  });
});
