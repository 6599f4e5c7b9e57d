import { describe, expect, it } from 'vitest';
import { feeCents, netCents, percentText } from './fees';

describe('the marketplace fee', () => {
  const five = { percent: 5, minCents: 0 };

  it('is the percent of the price rounded half up to the cent', () => {
    expect(feeCents(120_000, five)).toBe(6_000);
    expect(netCents(120_000, five)).toBe(114_000);
    // 5 % of $19.99 is 99.95 cents: a dollar; of $19.89, 99.45 cents: 99 cents.
    expect(feeCents(1_999, five)).toBe(100);
    expect(feeCents(1_989, five)).toBe(99);
    expect(feeCents(10, { percent: 2.75, minCents: 0 })).toBe(0);
    expect(feeCents(20, { percent: 2.5, minCents: 0 })).toBe(1);
  });

  it('is at least the minimum and never more than the price', () => {
    expect(feeCents(1_000, { percent: 5, minCents: 100 })).toBe(100);
    expect(feeCents(50, { percent: 5, minCents: 100 })).toBe(50);
    expect(netCents(50, { percent: 5, minCents: 100 })).toBe(0);
    expect(feeCents(0, five)).toBe(0);
  });

  it('adds up for every price: fee + net = price, both whole cents', () => {
    for (let price = 0; price < 5_000; price += 7) {
      const fee = feeCents(price, { percent: 3.33, minCents: 25 });
      expect(Number.isInteger(fee)).toBe(true);
      expect(fee + netCents(price, { percent: 3.33, minCents: 25 })).toBe(price);
      expect(fee).toBeGreaterThanOrEqual(0);
      expect(fee).toBeLessThanOrEqual(price);
    }
  });

  it('names its percent as the pages do', () => {
    expect(percentText(five)).toBe('5%');
    expect(percentText({ percent: 2.75, minCents: 0 })).toBe('2.75%');
  });
});
