import { describe, expect, it } from 'vitest';
import { safeFrom, signInPathFrom, withFrom } from './redirect';

describe('safeFrom', () => {
  it.each(['/category/01?book=7b0a3c1e-0000-4000-8000-000000000001', '/dashboard/mywishlist', '/'])(
    'keeps a path on this site: %s',
    (path) => {
      expect(safeFrom(path)).toBe(path);
    },
  );

  it.each([
    null,
    '',
    'https://evil.example/',
    '//evil.example/',
    '/\\evil.example/',
    '/\t/evil.example/',
    '/\n/evil.example/',
    '\\\\evil.example',
    'javascript:alert(1)',
  ])('sends anything that could leave the site home: %j', (from) => {
    expect(safeFrom(from)).toBe('/');
  });

  it('round-trips through the sign-in link', () => {
    const from = '/category/04?wish=7b0a3c1e-0000-4000-8000-000000000001';
    const params = new URL(signInPathFrom(from), 'http://x.example').searchParams;
    expect(safeFrom(params.get('from'))).toBe(from);
  });
});

describe('withFrom', () => {
  it('adds the remembered page, or nothing when it is home', () => {
    expect(withFrom('/signup/user', '/')).toBe('/signup/user');
    expect(withFrom('/signup/user', '/category/01?book=1')).toBe(
      '/signup/user?from=%2Fcategory%2F01%3Fbook%3D1',
    );
  });
});
