import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { copiesOf, randomOf, syntheticPhoto } from '../../../tests/helpers/synthetic-photos';
import {
  detailDistance,
  hammingDistance,
  PHOTO_MATCH_MAX_DETAIL_DISTANCE,
  PHOTO_MATCH_MAX_DISTANCE,
  photoHashes,
} from './photo-hash';
import { bandProbes, valuesWithin } from './photo-match';

describe('photo hashes', () => {
  it('keep a copy resized, re-encoded, trimmed or brightened within both thresholds', async () => {
    for (const seed of [11, 12, 13]) {
      const photo = await syntheticPhoto(seed);
      const original = await photoHashes(photo);
      for (const [copy, bytes] of Object.entries(await copiesOf(photo))) {
        const hashes = await photoHashes(bytes);
        expect(hammingDistance(original.hash, hashes.hash), copy).toBeLessThanOrEqual(
          PHOTO_MATCH_MAX_DISTANCE,
        );
        expect(detailDistance(original.detail, hashes.detail), copy).toBeLessThanOrEqual(
          PHOTO_MATCH_MAX_DETAIL_DISTANCE,
        );
      }
    }
  }, 60_000);

  it('are the same for a photo and the same photo turned upright by its EXIF orientation', async () => {
    const photo = await syntheticPhoto(14, 600);
    const upright = await photoHashes(photo);
    // Stored on its side with "turn 90° clockwise to show" (orientation 6), as phones write them.
    const sideways = await sharp(photo)
      .rotate(-90)
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    expect(hammingDistance(upright.hash, (await photoHashes(sideways)).hash)).toBeLessThanOrEqual(
      2,
    );
  });

  it('are far apart for two different photos', async () => {
    const a = await photoHashes(await syntheticPhoto(21, 600));
    const b = await photoHashes(await syntheticPhoto(22, 600));
    expect(hammingDistance(a.hash, b.hash)).toBeGreaterThan(PHOTO_MATCH_MAX_DISTANCE);
    expect(detailDistance(a.detail, b.detail)).toBeGreaterThan(PHOTO_MATCH_MAX_DETAIL_DISTANCE);
  });
});

describe('the lookup’s bands', () => {
  it('probe every value within 2 bits of a band', () => {
    expect(valuesWithin(0, 21, 2)).toHaveLength(1 + 21 + (21 * 20) / 2);
    expect(new Set(valuesWithin(5, 22, 2)).size).toBe(1 + 22 + (22 * 21) / 2);
  });

  it('find every hash at most the threshold apart in one band at least', () => {
    const random = randomOf(7);
    const bits = () => BigInt(Math.floor(random() * 2 ** 32));
    for (let trial = 0; trial < 2000; trial++) {
      const hash = (bits() << 32n) | bits();
      let other = hash;
      const flips = 1 + Math.floor(random() * PHOTO_MATCH_MAX_DISTANCE);
      for (let i = 0; i < flips; i++) other ^= 1n << BigInt(Math.floor(random() * 64));
      const probes = bandProbes(hash);
      const bands = bandProbes(other).map((values) => values[0]);
      expect(bands.some((band, i) => probes[i]?.includes(band as number))).toBe(true);
    }
  });
});
