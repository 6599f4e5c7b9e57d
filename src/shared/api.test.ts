import { describe, expect, it } from 'vitest';
import { apiPath, dollarsInputSchema, emailSchema, paginationQuerySchema } from './api';
import { srcSetOf } from './images';
import { nextLink } from './pagination';

describe('dollarsInputSchema', () => {
  it.each([
    [12, 12],
    ['12', 12],
    ['12.5', 12.5],
    [' 999.99 ', 999.99],
    [0.01, 0.01],
    [449, 449],
    [449.99, 449.99],
    ['449.99', 449.99],
    [1_000_000, 1_000_000],
    // Binary noise from a client's arithmetic is still 30 cents.
    [0.1 + 0.2, 0.1 + 0.2],
  ])('accepts %j as %j dollars', (input, dollars) => {
    expect(dollarsInputSchema.parse(input)).toBe(dollars);
  });

  it.each([0, -5, '12.345', 'twelve', '', '1e3', Number.NaN, 2_000_000, null, 12.3400000001])(
    'refuses %j',
    (input) => {
      expect(dollarsInputSchema.safeParse(input).success).toBe(false);
    },
  );

  it.each([0.000000001, '0.000000001', 1e-300, 0.001, 0.004999, 0.009, Number.MIN_VALUE])(
    'refuses %j, under a cent, as not a price (it would round to 0 cents)',
    (input) => {
      const result = dollarsInputSchema.safeParse(input);
      expect(result.error?.issues.map((i) => i.message)).toEqual(['must be at least 0.01']);
    },
  );

  it('takes every whole number of cents up to the maximum, written with two decimals', () => {
    const wrong: string[] = [];
    for (let cents = 1; cents <= 100_000_000; cents += cents < 100_000 ? 1 : 9_973) {
      const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
      const parsed = dollarsInputSchema.safeParse(text);
      if (!parsed.success || Math.round(parsed.data * 100) !== cents) wrong.push(text);
    }
    expect(wrong).toEqual([]);
  });
});

describe('emailSchema', () => {
  it('trims and lower-cases an address', () => {
    expect(emailSchema.parse('  Buyer@Example.COM ')).toBe('buyer@example.com');
  });
  it('refuses what is not an address', () => {
    expect(emailSchema.safeParse('buyer@').success).toBe(false);
  });
});

describe('paginationQuerySchema', () => {
  it('defaults to 24 items and no cursor', () => {
    expect(paginationQuerySchema.parse({})).toEqual({ limit: 24 });
  });
});

describe('nextLink', () => {
  it('finds the next URL among other relations', () => {
    expect(nextLink('</api/x?cursor=1>; rel="prev", </api/x?cursor=9>; rel="next"')).toBe(
      '/api/x?cursor=9',
    );
  });
  it('answers null without a next relation', () => {
    expect(nextLink(undefined)).toBeNull();
    expect(nextLink('</api/x>; rel="prev"')).toBeNull();
  });
});

describe('apiPath', () => {
  it('fills and encodes path parameters under /api', () => {
    expect(apiPath('/users/admin/:email', { email: 'a+b@example.com' })).toBe(
      '/api/users/admin/a%2Bb%40example.com',
    );
  });
  it('refuses a missing parameter', () => {
    expect(() => apiPath('/category/:id')).toThrow(/id/);
  });
});

describe('srcSetOf', () => {
  it('lists every stored width of our own images', () => {
    expect(srcSetOf('/images/abc123-640.webp')).toBe(
      '/images/abc123-320.webp 320w, /images/abc123-640.webp 640w, /images/abc123-960.webp 960w',
    );
  });
  it('leaves images of other hosts alone', () => {
    expect(srcSetOf('https://i.ibb.co/xyz/phone.jpg')).toBeUndefined();
  });
});
