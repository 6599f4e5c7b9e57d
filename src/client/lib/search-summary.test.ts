import { describe, expect, it } from 'vitest';
import { describeSearch, searchName } from './search-summary';

const of = (query: string) => new URLSearchParams(query);

describe('a search in a few words (issue 33)', () => {
  it('names each filter set, in one order, lists joined with "or"', () => {
    expect(
      describeSearch(
        of(
          'q=pixel&brand=01&brand=02&ram=8+GB&storage=1+GTB&condition=Good&condition=Flawless&minPrice=200&maxPrice=450.5&minBattery=4500&minBatteryHealth=85&location=Austin&verified=true&includeSold=true&sort=price-asc',
        ),
      ),
    ).toEqual([
      'pixel',
      'Apple or Samsung',
      '1 TB',
      '8 GB RAM',
      'Good or Flawless',
      '$200–$450.50',
      '4,500+ mAh',
      'battery health 85%+',
      'in Austin',
      'verified sellers',
    ]);
    expect(describeSearch(of('minPrice=300'))).toEqual(['over $300']);
  });

  it('offers "All phones" for no filter, and cuts a long name to the longest allowed', () => {
    expect(searchName(of(''))).toBe('All phones');
    const name = searchName(of(`q=${'word '.repeat(20)}&storage=64+GB`));
    expect(name).toHaveLength(60);
    expect(name.endsWith('…')).toBe(true);
  });
});
