import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryString, send } from './transport';

afterEach(() => vi.unstubAllGlobals());

describe('queryString', () => {
  it('repeats the parameter of a list, once per value, in order', () => {
    expect(queryString({ ram: ['4 GB', '8 GB'], brand: ['01'] })).toBe(
      'ram=4%20GB&ram=8%20GB&brand=01',
    );
  });

  it('leaves out undefined values and empty lists, and keeps zero and false', () => {
    expect(queryString({ q: undefined, storage: [], minBattery: 0, verified: false })).toBe(
      'minBattery=0&verified=false',
    );
  });

  it('encodes what would break the query: &, =, +, # and spaces', () => {
    expect(queryString({ q: 'a&b=c+d #1' })).toBe('q=a%26b%3Dc%2Bd%20%231');
  });

  it('is empty for no query', () => {
    expect(queryString({})).toBe('');
  });
});

describe('send', () => {
  it("puts a call's repeated filters in its URL", async () => {
    const fetch = vi.fn(async () => Response.json({ count: 0, countCapped: false, products: [] }));
    vi.stubGlobal('fetch', fetch);
    await send('searchProducts', {
      query: { q: 'iphone 13', storage: ['128 GB', '256 GB'], maxPrice: 450, sort: 'price-asc' },
    });
    expect(fetch).toHaveBeenCalledWith(
      '/api/search?q=iphone%2013&storage=128%20GB&storage=256%20GB&maxPrice=450&sort=price-asc',
      expect.objectContaining({ method: 'GET' }),
    );
  });
});
