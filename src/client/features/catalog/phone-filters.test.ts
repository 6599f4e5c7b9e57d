import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  brandScope,
  clearFilters,
  emptyFilters,
  isFiltered,
  readFilters,
  SEARCH_SCOPE,
  searchInput,
  writeFilters,
} from './phone-filters';

const read = (query: string, scope = SEARCH_SCOPE) =>
  readFilters(new URLSearchParams(query), scope);

describe('readFilters', () => {
  it("reads the brief's URL: words, brand, storage, a price bound and the sort", () => {
    const { filters, ignored } = read(
      'q=iphone+13&brand=01&storage=128+GB&maxPrice=450&sort=price-asc',
    );
    expect(filters).toEqual({
      ...emptyFilters(SEARCH_SCOPE),
      q: 'iphone 13',
      brand: ['01'],
      storage: ['128 GB'],
      maxPrice: '450',
      sort: 'price-asc',
    });
    expect(ignored).toEqual([]);
  });

  it('takes a repeated filter as several values, once each, in the form’s order', () => {
    const { filters } = read('ram=8+GB&ram=4+GB&ram=8+GB&condition=Good&condition=Brand+New');
    expect(filters.ram).toEqual(['4 GB', '8 GB']);
    expect(filters.condition).toEqual(['Brand New', 'Good']);
  });

  it('leaves out and names what it does not know, instead of failing', () => {
    const { filters, ignored } = read(
      'brand=99&brand=02&minPrice=cheap&minBattery=4.5&verified=yes&sort=oldest&includeSold=maybe',
    );
    expect(filters).toEqual({ ...emptyFilters(SEARCH_SCOPE), brand: ['02'] });
    expect(ignored).toEqual([
      'brand=99',
      'minPrice=cheap',
      'minBattery=4.5',
      'verified=yes',
      'includeSold=maybe',
      'sort=oldest',
    ]);
  });

  it('takes empty values (a plain GET form sends them) as no filter', () => {
    const { filters, ignored } = read(
      'q=&minPrice=&maxPrice=&minBattery=&minBatteryHealth=&location=&brand=',
    );
    expect(filters).toEqual(emptyFilters(SEARCH_SCOPE));
    expect(ignored).toEqual([]);
  });

  it('shows sold phones on a brand page unless told not to, and only when told on the search', () => {
    expect(read('').filters.includeSold).toBe(false);
    expect(read('includeSold=true').filters.includeSold).toBe(true);
    expect(read('', brandScope('01')).filters.includeSold).toBe(true);
    expect(read('includeSold=false', brandScope('01')).filters.includeSold).toBe(false);
  });

  it("on a brand page, another brand and words are not the page's to take", () => {
    const { filters, ignored } = read('brand=02&brand=01&q=galaxy&ram=8+GB', brandScope('01'));
    expect(filters.brand).toEqual([]);
    expect(filters.q).toBe('');
    expect(filters.ram).toEqual(['8 GB']);
    expect(ignored).toEqual(['brand=02', 'q=galaxy']);
  });
});

describe('battery health (issue 19)', () => {
  it('reads a bound of 50 to 100 percent, the form’s or another, and writes it back', () => {
    for (const value of ['80', '85', '90', '95', '50', '100', '88']) {
      const { filters, ignored } = read(`minBatteryHealth=${value}`);
      expect(filters).toEqual({ ...emptyFilters(SEARCH_SCOPE), minBatteryHealth: value });
      expect(ignored).toEqual([]);
      expect(writeFilters(filters, SEARCH_SCOPE).toString()).toBe(`minBatteryHealth=${value}`);
    }
    expect(read('minBatteryHealth=085').filters.minBatteryHealth).toBe('85');
  });

  it('leaves out and names a bound that is not a percentage the search takes', () => {
    for (const value of ['49', '101', '85.5', 'high', '-90', '1e2']) {
      const { filters, ignored } = read(`minBatteryHealth=${value}`);
      expect(filters.minBatteryHealth).toBe('');
      expect(ignored).toEqual([`minBatteryHealth=${value}`]);
    }
  });

  it('asks the search for it, counts it as a filter, and clears it with the others', () => {
    const { filters } = read('q=pixel&minBatteryHealth=90&ram=8+GB');
    expect(searchInput(filters, SEARCH_SCOPE)).toEqual({
      q: 'pixel',
      ram: ['8 GB'],
      minBatteryHealth: '90',
    });
    expect(activeFilterCount(filters, SEARCH_SCOPE)).toBe(2);
    expect(writeFilters(filters, SEARCH_SCOPE).toString()).toBe(
      'q=pixel&ram=8+GB&minBatteryHealth=90',
    );
    expect(writeFilters(clearFilters(filters, SEARCH_SCOPE), SEARCH_SCOPE).toString()).toBe(
      'q=pixel',
    );
    expect(searchInput(emptyFilters(SEARCH_SCOPE), SEARCH_SCOPE)).toEqual({});
  });

  it('on a brand page too, beside its brand', () => {
    const scope = brandScope('02');
    const { filters } = read('minBatteryHealth=95', scope);
    expect(searchInput(filters, scope)).toEqual({
      brand: ['02'],
      includeSold: 'true',
      minBatteryHealth: '95',
    });
  });
});

describe('writeFilters', () => {
  it('writes one URL for one list, leaving out defaults, and reads back the same filters', () => {
    const query = 'ram=8+GB&brand=01&q=iphone+13&sort=price-desc&verified=true&minPrice=100';
    const { filters } = read(query);
    const written = writeFilters(filters, SEARCH_SCOPE).toString();
    expect(written).toBe(
      'q=iphone+13&brand=01&ram=8+GB&minPrice=100&verified=true&sort=price-desc',
    );
    expect(read(written).filters).toEqual(filters);
  });

  it('is empty for no filters, and names include-sold only where it is not the default', () => {
    expect(writeFilters(emptyFilters(SEARCH_SCOPE), SEARCH_SCOPE).toString()).toBe('');
    const brand = brandScope('03');
    expect(writeFilters({ ...emptyFilters(brand), includeSold: false }, brand).toString()).toBe(
      'includeSold=false',
    );
    expect(
      writeFilters({ ...emptyFilters(SEARCH_SCOPE), includeSold: true }, SEARCH_SCOPE).toString(),
    ).toBe('includeSold=true');
  });

  it('keeps the parameters that are not filters, and drops the old filters', () => {
    const other = new URLSearchParams('book=abc&ram=4+GB&utm_source=mail');
    const written = writeFilters(
      { ...emptyFilters(SEARCH_SCOPE), ram: ['8 GB'] },
      SEARCH_SCOPE,
      other,
    );
    expect(written.toString()).toBe('ram=8+GB&book=abc&utm_source=mail');
  });
});

describe('searchInput', () => {
  it('asks the search for what is set only, lists as lists and flags as the contract spells them', () => {
    const { filters } = read(
      'q=+pixel+&brand=02&brand=05&minPrice=0&maxPrice=450.5&minBattery=4000&verified=true&includeSold=true&sort=price-asc&location=+Austin',
    );
    expect(searchInput(filters, SEARCH_SCOPE)).toEqual({
      q: 'pixel',
      brand: ['02', '05'],
      maxPrice: '450.5',
      minBattery: '4000',
      location: 'Austin',
      verified: 'true',
      includeSold: 'true',
      sort: 'price-asc',
    });
  });

  it("on a brand page, asks for the page's brand and its sold phones by default", () => {
    const scope = brandScope('01');
    expect(searchInput(read('sort=price-asc', scope).filters, scope)).toEqual({
      brand: ['01'],
      includeSold: 'true',
      sort: 'price-asc',
    });
    expect(searchInput(read('includeSold=false', scope).filters, scope)).toEqual({ brand: ['01'] });
  });
});

describe('counting and clearing', () => {
  it('counts each value set, but not the words, the sort or the default', () => {
    const { filters } = read('q=x&ram=4+GB&ram=8+GB&maxPrice=300&verified=true&sort=price-asc');
    expect(activeFilterCount(filters, SEARCH_SCOPE)).toBe(4);
    expect(activeFilterCount(emptyFilters(brandScope('01')), brandScope('01'))).toBe(0);
  });

  it('clears the filters and keeps the words and the sort', () => {
    const { filters } = read('q=x&ram=4+GB&location=Austin&sort=price-asc');
    expect(writeFilters(clearFilters(filters, SEARCH_SCOPE), SEARCH_SCOPE).toString()).toBe(
      'q=x&sort=price-asc',
    );
  });

  it('calls a brand page filtered when a filter or sort differs from its plain list', () => {
    const scope = brandScope('01');
    expect(isFiltered(read('', scope).filters, scope)).toBe(false);
    expect(isFiltered(read('includeSold=true&book=abc', scope).filters, scope)).toBe(false);
    expect(isFiltered(read('sort=price-asc', scope).filters, scope)).toBe(true);
    expect(isFiltered(read('includeSold=false', scope).filters, scope)).toBe(true);
  });
});
