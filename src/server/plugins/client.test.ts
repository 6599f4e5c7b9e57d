import { describe, expect, it } from 'vitest';
import { preferredEncoding } from './client';

describe('preferredEncoding', () => {
  it('prefers brotli, then gzip, then none', () => {
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('gzip, deflate')).toBe('gzip');
    expect(preferredEncoding('deflate')).toBe('identity');
    expect(preferredEncoding(undefined)).toBe('identity');
  });

  it('takes q=0 as a refusal', () => {
    expect(preferredEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(preferredEncoding('br; q=0 , gzip;q=0')).toBe('identity');
    expect(preferredEncoding('BR;Q=1')).toBe('br');
  });
});
