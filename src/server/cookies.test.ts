import { describe, expect, it } from 'vitest';
import { cookieValues, secureCookies } from './cookies';

describe('cookieValues', () => {
  it('finds every value of the name, in order, and nothing of names that merely contain it', () => {
    expect(cookieValues('a=1; device=x; xdevice=y; device = z ;b=2', 'device')).toEqual(['x', 'z']);
  });

  it('is empty for no header, no such cookie, or a header that is no list of cookies', () => {
    expect(cookieValues(undefined, 'device')).toEqual([]);
    expect(cookieValues('a=1', 'device')).toEqual([]);
    expect(cookieValues(';;; =;device', 'device')).toEqual([]);
  });
});

describe('secureCookies', () => {
  it('are Secure on an https site only', () => {
    expect(secureCookies({ PUBLIC_URL: 'https://phones.example' })).toBe(true);
    expect(secureCookies({ PUBLIC_URL: 'http://localhost:3000' })).toBe(false);
    expect(secureCookies({})).toBe(false);
  });
});
