import { describe, expect, it } from 'vitest';
import { formatDate, formatDollars, formatRating, storageLabel } from './format';

describe('format', () => {
  it('shows dates as medium dates', () => {
    expect(formatDate('2026-10-05T12:00:00Z')).toBe('Oct 5, 2026');
  });
  it('shows dollars with a sign, cents only when present', () => {
    expect(formatDollars(949)).toBe('$949');
    expect(formatDollars(450.5)).toBe('$450.50');
    expect(formatDollars(1200)).toBe('$1,200');
    expect(formatDollars(12345.5)).toBe('$12,345.50');
  });
  it("shows the storage value '1 GTB' as 1 TB", () => {
    expect(storageLabel('1 GTB')).toBe('1 TB');
    expect(storageLabel('256 GB')).toBe('256 GB');
  });
  it('shows a rating as stars and count, and none before the first', () => {
    expect(formatRating({ average: 4.5, count: 12 })).toBe('★ 4.5 (12)');
    expect(formatRating({ average: 4, count: 1 })).toBe('★ 4.0 (1)');
    expect(formatRating({ average: null, count: 0 })).toBeNull();
  });
});
