import { describe, expect, it } from 'vitest';
import { clientKey } from './identity-guard';
import { WindowThrottle } from './window-throttle';

describe('WindowThrottle', () => {
  it('holds a key back past its limit until its window has passed', () => {
    const throttle = new WindowThrottle({ limit: 2, windowMs: 1000 });
    throttle.count('a', 0);
    expect(throttle.retryAfter('a', 10)).toBe(0);
    throttle.count('a', 10);
    expect(throttle.retryAfter('a', 10)).toBe(1);
    expect(throttle.retryAfter('a', 999)).toBe(1);
    expect(throttle.retryAfter('a', 1000)).toBe(0);
  });

  it('drops an expired entry when it is read', () => {
    const throttle = new WindowThrottle({ limit: 1, windowMs: 1000 });
    throttle.count('a', 0);
    expect(throttle.size).toBe(1);
    expect(throttle.retryAfter('a', 5000)).toBe(0);
    expect(throttle.size).toBe(0);
  });

  it('keeps at most maxKeys keys, however many are made up', () => {
    const throttle = new WindowThrottle({ limit: 5, maxKeys: 100 });
    for (let i = 0; i < 10_000; i++) throttle.count(`made-up-${i}@test.example`);
    expect(throttle.size).toBe(100);
  });

  it('forgets a key on reset', () => {
    const throttle = new WindowThrottle({ limit: 1 });
    throttle.count('a');
    throttle.reset('a');
    expect(throttle.retryAfter('a')).toBe(0);
  });
});

describe('clientKey', () => {
  it('is the address for IPv4 (mapped or not) and the /64 for IPv6', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:1:2::10')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
  });
});
