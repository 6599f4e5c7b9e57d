import { describe, expect, it } from 'vitest';
import { isWellFormedHost } from './host-guard';

describe('isWellFormedHost', () => {
  it.each([
    'localhost',
    'localhost:3000',
    '127.0.0.1',
    '127.0.0.1:65535',
    '[::1]',
    '[::1]:3000',
    '[2001:db8::1]',
    'market.example.com',
    'market.example.com.',
    'my_service:8080',
  ])('takes %s', (host) => {
    expect(isWellFormedHost(host)).toBe(true);
  });

  it.each([
    '127.0.0.1 evil',
    'a@b',
    '[',
    '[::1',
    '[not-ipv6]',
    'a/b',
    'a?b',
    'a#b',
    'a\\b',
    'localhost:99999',
    'localhost:',
    'localhost:80:80',
    '256.1.1.1',
    '1.2.3.4.5',
    '',
  ])('refuses %j', (host) => {
    expect(isWellFormedHost(host)).toBe(false);
  });
});
