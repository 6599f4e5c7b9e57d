/**
 * A photo's perceptual hash (issue 34, decision 054): bits that stay nearly the same when the
 * picture is resized, re-encoded, trimmed by a few pixels or brightened, so a listing's photo
 * downloaded from another listing and uploaded again is found though its bytes and URL differ.
 *
 * The method is pHash's DCT hash (phash.org, Zauner 2010), computed with sharp: the picture
 * upright and grey, squeezed to 64×64, its 2-D DCT, and of the lowest frequencies (the constant
 * row and column left out) one bit each: above their median or not. The low frequencies are the
 * picture's layout of light and dark, which none of those changes moves. Two hashes of one DCT:
 * - `hash`, 64 bits (frequencies 1..8 on each axis): small enough to index (photo-match.ts), and
 *   what the match's distance reports;
 * - `detail`, 256 bits (frequencies 1..16): what tells apart two photos whose layout alone is
 *   alike (a dark phone, screen off, at the same angle on two tables), checked on every candidate.
 */
import sharp from 'sharp';

const SIDE = 64;
const DETAIL = 16;
const COARSE = 8;

/**
 * A candidate's largest distance in `hash` (of 64 bits) and, to count as the same picture, in
 * `detail` (of 256 bits). Chosen from measurement (decision 054): copies resized, re-encoded,
 * trimmed and brightened lie at most 4 and 16 bits from their original; of 1,000 different
 * synthetic phone photos, one pair lies within 8 bits on `hash` (6) but every pair at least 70 on
 * `detail` (two unrelated photos: 32 and 128).
 */
export const PHOTO_MATCH_MAX_DISTANCE = 8;
export const PHOTO_MATCH_MAX_DETAIL_DISTANCE = 40;

export type PhotoHashes = {
  /** 64 bits as an unsigned bigint, the lowest frequency first (most significant). */
  hash: bigint;
  /** 256 bits as a string of '0' and '1', as PostgreSQL writes a `bit(256)`. */
  detail: string;
  /**
   * The picture is (nearly) one flat colour: its hashes say nothing about it (every blank image
   * hashes alike), so it is matched by its URL alone, never perceptually.
   */
  featureless: boolean;
};

/** A grey picture whose pixels' standard deviation is below this (of 255) is featureless. */
export const FEATURELESS_STDDEV = 4;

/** cos((2x + 1)uπ / 2N) for the frequencies u = 1..16 the hashes keep, N = 64. */
const COSINES = Array.from({ length: DETAIL }, (_, i) =>
  Float64Array.from({ length: SIDE }, (_, x) =>
    Math.cos(((2 * x + 1) * (i + 1) * Math.PI) / (2 * SIDE)),
  ),
);

/** The perceptual hashes of an image's bytes (any format sharp reads). */
export async function photoHashes(bytes: Buffer): Promise<PhotoHashes> {
  const pixels = await sharp(bytes, { failOn: 'error' })
    .rotate()
    .flatten({ background: '#ffffff' })
    .greyscale()
    .resize(SIDE, SIDE, { fit: 'fill', kernel: 'cubic' })
    .raw()
    .toBuffer();
  return hashesOfGrey(pixels);
}

/** The hashes of a 64×64 grey picture, one byte a pixel, rows top to bottom. */
export function hashesOfGrey(pixels: Uint8Array): PhotoHashes {
  // The separable DCT, only for the frequencies kept on each axis: rows first, then columns.
  const rows = new Float64Array(SIDE * DETAIL);
  for (let y = 0; y < SIDE; y++)
    for (let u = 0; u < DETAIL; u++) {
      const cos = COSINES[u] as Float64Array;
      let sum = 0;
      for (let x = 0; x < SIDE; x++) sum += (pixels[y * SIDE + x] as number) * (cos[x] as number);
      rows[y * DETAIL + u] = sum;
    }
  const detail = new Float64Array(DETAIL * DETAIL);
  const coarse = new Float64Array(COARSE * COARSE);
  for (let v = 0; v < DETAIL; v++) {
    const cos = COSINES[v] as Float64Array;
    for (let u = 0; u < DETAIL; u++) {
      let sum = 0;
      for (let y = 0; y < SIDE; y++) sum += (rows[y * DETAIL + u] as number) * (cos[y] as number);
      detail[v * DETAIL + u] = sum;
      if (u < COARSE && v < COARSE) coarse[v * COARSE + u] = sum;
    }
  }
  const coarseMedian = medianOf(coarse);
  let hash = 0n;
  for (const c of coarse) hash = (hash << 1n) | (c > coarseMedian ? 1n : 0n);
  const detailMedian = medianOf(detail);
  let sum = 0;
  let squares = 0;
  for (const p of pixels) {
    sum += p;
    squares += p * p;
  }
  const mean = sum / pixels.length;
  const stddev = Math.sqrt(Math.max(0, squares / pixels.length - mean * mean));
  return {
    hash,
    detail: Array.from(detail, (c) => (c > detailMedian ? '1' : '0')).join(''),
    featureless: stddev < FEATURELESS_STDDEV,
  };
}

const medianOf = (values: Float64Array): number => {
  const sorted = Float64Array.from(values).sort();
  return ((sorted[sorted.length / 2 - 1] as number) + (sorted[sorted.length / 2] as number)) / 2;
};

/** Bits that differ between two 64-bit hashes. */
export function hammingDistance(a: bigint, b: bigint): number {
  let x = BigInt.asUintN(64, a ^ b);
  let count = 0;
  while (x) {
    x &= x - 1n;
    count++;
  }
  return count;
}

/** Bits that differ between two `detail` hashes. */
export function detailDistance(a: string, b: string): number {
  let count = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) count++;
  return count;
}
