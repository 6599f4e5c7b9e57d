import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidImageError, LocalImageStore } from './image-store';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'phone-market-images-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const jpegWithGps = () =>
  sharp({ create: { width: 1200, height: 900, channels: 3, background: '#3355aa' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PhoneCo' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '47/1 36/1 0/1' },
    })
    .toBuffer();

describe('LocalImageStore', () => {
  it('stores WebP variants in three widths with no metadata left', async () => {
    const input = await jpegWithGps();
    expect((await sharp(input).metadata()).exif).toBeDefined();

    const { url } = await new LocalImageStore(dir).save(input);
    expect(url).toMatch(/^\/images\/[0-9a-f]{32}-640\.webp$/);
    const files = (await readdir(dir)).sort();
    expect(files).toHaveLength(3);
    for (const file of files) {
      const meta = await sharp(await readFile(path.join(dir, file))).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.exif).toBeUndefined();
      expect(meta.width).toBe(Number(/-(\d+)\.webp$/.exec(file)?.[1]));
    }
  });

  it('names files by content, so the same photo is stored once', async () => {
    const input = await jpegWithGps();
    const store = new LocalImageStore(dir);
    const a = await store.save(input);
    const b = await store.save(input);
    expect(a.url).toBe(b.url);
    expect(await readdir(dir)).toHaveLength(3);
  });

  it.each([
    ['a text file', Buffer.from('just some text, not a photo')],
    ['an empty file', Buffer.alloc(0)],
    [
      'an SVG upload',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'),
    ],
  ])('refuses %s and stores nothing', async (_name, bytes) => {
    await expect(new LocalImageStore(dir).save(bytes)).rejects.toBeInstanceOf(InvalidImageError);
    expect(await readdir(dir).catch(() => [])).toHaveLength(0);
  });
});
