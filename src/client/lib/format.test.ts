import { describe, expect, it } from 'vitest';
import {
  formatCount,
  formatDate,
  formatDateTime,
  formatDollars,
  formatMoney,
  formatRating,
  storageLabel,
} from './format';

describe('format', () => {
  it('shows dates as medium dates', () => {
    expect(formatDate('2026-10-05T12:00:00Z')).toBe('Oct 5, 2026');
  });
  it('writes dates as Intl.DateTimeFormat does, in the same time zone, without its locale data', () => {
    const medium = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
    for (let day = 0; day < 800; day += 7) {
      const iso = new Date(Date.UTC(2025, 0, 1, 23, 30) + day * 86_400_000).toISOString();
      expect(formatDate(iso), iso).toBe(medium.format(new Date(iso)));
    }
  });
  it('writes dates with their time as Intl.DateTimeFormat does, without its locale data', () => {
    const mediumShort = new Intl.DateTimeFormat('en-US', {
      dateStyle: 'medium',
      timeStyle: 'short',
    });
    // Every hour of a day, minutes with one digit and two, and days across a year's end.
    for (let minute = 0; minute < 60 * 24 * 3; minute += 53) {
      const iso = new Date(Date.UTC(2026, 11, 30, 0, minute)).toISOString();
      expect(formatDateTime(iso), iso).toBe(mediumShort.format(new Date(iso)));
    }
  });
  it('shows dollars with a sign, cents only when present', () => {
    expect(formatDollars(949)).toBe('$949');
    expect(formatDollars(450.5)).toBe('$450.50');
    expect(formatDollars(1200)).toBe('$1,200');
    expect(formatDollars(12345.5)).toBe('$12,345.50');
  });
  it('writes dollars as Intl.NumberFormat does, without its locale data', () => {
    const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
    const cents = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2 });
    const amounts = [0, 1, 7, 99, 100, 999, 1000, 12_345, 999_999, 1_000_000, 123_456_789];
    const withCents = [0.5, 0.01, 9.99, 450.5, 1000.1, 12_345.67, 999_999.99, 2.125, 1.005];
    for (const amount of [
      ...amounts,
      ...withCents,
      ...[...amounts, ...withCents].filter((a) => a !== 0).map((a) => -a),
    ])
      expect(formatDollars(amount), String(amount)).toBe(
        `$${(Number.isInteger(amount) ? whole : cents).format(amount)}`,
      );
  });
  it('writes money to the cent as Intl.NumberFormat writes US dollars, the sign first', () => {
    const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    for (const amount of [0, 0.01, 0.5, 1, 9.99, 57.5, 1140, 1234.56, 999_999.99, 1_000_000])
      for (const signed of amount === 0 ? [0] : [amount, -amount])
        expect(formatMoney(signed), String(signed)).toBe(usd.format(signed));
  });
  it('writes counts as toLocaleString does', () => {
    for (const count of [0, 7, 999, 1000, 1001, 25_000, 1_000_000])
      expect(formatCount(count)).toBe(count.toLocaleString('en-US'));
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
