/**
 * The image pipeline: a 12-megapixel camera-like JPEG through the embedded image store (sniff,
 * strip metadata, three WebP variants), timed, with the size of the default variant.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { LocalImageStore } from '../src/server/images/image-store';
import type { Figure } from './lib/report';

const SECTION = 'Image pipeline (12 MP JPEG upload)';
const WIDTH = 4000;
const HEIGHT = 3000;
const RUNS = 3;

/** A repeatable pseudo-random byte for a cell of a grid. */
const hash = (x: number, y: number, seed: number) => {
  let h = (x * 374_761_393 + y * 668_265_263 + seed * 2_147_483_647) | 0;
  h = Math.imul(h ^ (h >>> 13), 1_274_126_177);
  return (h ^ (h >>> 16)) & 0xff;
};

/**
 * A photo-like JPEG: a colour gradient (the light of a scene), patches at two scales (objects
 * and texture that survive downscaling) and per-pixel grain (the sensor), so it compresses like
 * a real 12 MP photo, megabytes, not like a flat test card.
 */
async function cameraLikeJpeg(seed: number): Promise<Buffer> {
  const raw = Buffer.alloc(WIDTH * HEIGHT * 3);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const detail =
        (hash(x >> 6, y >> 6, seed) >> 2) +
        (hash(x >> 4, y >> 4, seed + 1) >> 3) +
        (hash(x, y, seed + 2) >> 3);
      const i = (y * WIDTH + x) * 3;
      raw[i] = Math.min(255, (x * 160) / WIDTH + detail);
      raw[i + 1] = Math.min(255, (y * 160) / HEIGHT + detail);
      raw[i + 2] = Math.min(255, ((x + y) * 100) / (WIDTH + HEIGHT) + 40 + detail);
    }
  }
  return sharp(raw, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .jpeg({ quality: 92 })
    .withMetadata({ exif: { IFD0: { Make: 'Bench', Model: 'Camera' } } })
    .toBuffer();
}

export async function benchImages(): Promise<Figure[]> {
  const dir = mkdtempSync('/tmp/phone-market-bench-images.');
  try {
    const store = new LocalImageStore(dir);
    const times: number[] = [];
    let inputBytes = 0;
    let defaultBytes = 0;
    for (let run = 0; run < RUNS; run++) {
      // A different photo each run: the store skips variants it already has.
      const photo = await cameraLikeJpeg(run + 1);
      inputBytes = photo.length;
      const started = performance.now();
      const { url } = await store.save(photo);
      times.push(performance.now() - started);
      defaultBytes = statSync(path.join(dir, path.basename(url))).size;
    }
    times.sort((a, b) => a - b);
    return [
      {
        section: SECTION,
        name: 'processing time (median of 3)',
        value: (times[1] ?? 0) / 1000,
        unit: 's',
        target: { op: '<', value: 1.5 },
        note: `input ${WIDTH}×${HEIGHT} JPEG of ${(inputBytes / 1e6).toFixed(1)} MB`,
      },
      {
        section: SECTION,
        name: 'default variant (640 px WebP)',
        value: defaultBytes / 1000,
        unit: 'KB',
        target: { op: '<', value: 80 },
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
