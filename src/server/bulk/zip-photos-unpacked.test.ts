import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it, vi } from 'vitest';
import { photoOf, zipOf } from '../../../tests/helpers/zip-files';
import { readZipPhotos } from './zip-photos';

/** The total a ZIP's photos may unpack to, made small: 400 MB of photos is no unit test. */
const CAP = 400;
// vi.mock runs before this module's constants exist, so it repeats CAP's figure.
vi.mock('../../shared/bulk', async (original) => ({
  ...(await original<typeof import('../../shared/bulk')>()),
  BULK_UNPACKED_MAX_BYTES: 400,
}));

it('fails the photos past the total unpacked cap, and reads those before it', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bulk-zip-'));
  try {
    const first = await photoOf('jpeg', { r: 10, g: 10, b: 10 });
    const second = await photoOf('jpeg', { r: 250, g: 250, b: 250 });
    // The cap holds either photo, not both.
    expect(first.length).toBeLessThanOrEqual(CAP);
    expect(first.length + second.length).toBeGreaterThan(CAP);
    const file = path.join(dir, 'photos.zip');
    await writeFile(
      file,
      zipOf([
        { name: 'first.jpg', data: first },
        { name: 'second.jpg', data: second },
      ]),
    );
    const taken: string[] = [];
    const answer = await readZipPhotos(file, ['first.jpg', 'second.jpg'], async (_, name) => {
      taken.push(name);
      return `/images/${name}`;
    });
    expect(answer).toEqual({
      ok: true,
      photos: new Map([
        ['first.jpg', { ok: true, url: '/images/first.jpg' }],
        [
          'second.jpg',
          {
            ok: false,
            message:
              "Photos: second.jpg: the ZIP's photos together unpack to more than 1 MB; send fewer phones in one upload",
          },
        ],
      ]),
    });
    expect(taken).toEqual(['first.jpg']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
