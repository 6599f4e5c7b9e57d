import { describe, expect, it } from 'vitest';
import { LimitStore, LimitsUnavailableError } from '../limits/limit-store';
import { MemoryLimitBackend } from '../limits/memory-limit-backend';
import { clientKey } from './identity-guard';
import { WindowThrottle } from './window-throttle';

/** A store in memory whose clock the test moves. */
function storeAt(clock: { now: number }) {
  return new LimitStore(new MemoryLimitBackend(() => clock.now));
}

describe('WindowThrottle', () => {
  it('holds a key back past its limit until its window has passed', async () => {
    const clock = { now: 0 };
    const throttle = new WindowThrottle(storeAt(clock), 'tries', {
      limit: 2,
      windowMs: 1000,
      whenUncounted: 'refuse',
    });
    expect(await throttle.take('a')).toBe(0);
    clock.now = 10;
    expect(await throttle.take('a')).toBe(0);
    expect(await throttle.take('a')).toBe(1);
    clock.now = 999;
    expect(await throttle.take('a')).toBe(1);
    expect(await throttle.take('b')).toBe(0);
    clock.now = 1000;
    expect(await throttle.take('a')).toBe(0);
  });

  it('forgets a key on reset', async () => {
    const throttle = new WindowThrottle(storeAt({ now: 0 }), 'tries', {
      limit: 1,
      windowMs: 1000,
      whenUncounted: 'refuse',
    });
    await throttle.take('a');
    await throttle.reset('a');
    expect(await throttle.take('a')).toBe(0);
  });

  it('lets a flood limit through uncounted and refuses a guessing limit while its store fails', async () => {
    const broken = new LimitStore(
      {
        kind: 'redis',
        counter: () => ({
          hit: () => Promise.reject(new Error('connection refused')),
          reset: () => Promise.reject(new Error('connection refused')),
        }),
        close: async () => {},
      },
      { info: () => {}, warn: () => {}, error: () => {} },
    );
    const options = { limit: 1, windowMs: 1000 };
    const signUps = new WindowThrottle(broken, 'sign-ups', { ...options, whenUncounted: 'allow' });
    const signIns = new WindowThrottle(broken, 'sign-ins', { ...options, whenUncounted: 'refuse' });
    expect(await signUps.take('a')).toBe(0);
    expect(await signUps.take('a')).toBe(0);
    await expect(signIns.take('a')).rejects.toBeInstanceOf(LimitsUnavailableError);
    await expect(signIns.reset('a')).resolves.toBeUndefined();
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
