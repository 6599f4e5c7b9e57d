import { describe, expect, it } from 'vitest';
import { AnswerCache } from './public-answers';

function clock() {
  let time = 1_000;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

describe('AnswerCache', () => {
  it('reuses an answer until it is ttlMs old, then reads again', async () => {
    const c = clock();
    const cache = new AnswerCache<number>({ ttlMs: 1000, maxEntries: 10, now: c.now });
    let reads = 0;
    const read = async () => ++reads;
    expect(await cache.get('a', read)).toBe(1);
    c.advance(999);
    expect(await cache.get('a', read)).toBe(1);
    c.advance(1);
    expect(await cache.get('a', read)).toBe(2);
    expect(await cache.get('b', read)).toBe(3);
  });

  it('gives a reader who must see a WAL position only an answer read at or past it', async () => {
    const cache = new AnswerCache<string>({ ttlMs: 1000, maxEntries: 10 });
    const readAt = (value: string, seen: bigint) => async () => ({ value, seen });
    expect(await cache.getSeeing('k', 0n, readAt('read at 5', 5n))).toBe('read at 5');
    expect(await cache.getSeeing('k', 5n, readAt('unused', 9n))).toBe('read at 5');
    expect(await cache.getSeeing('k', 7n, readAt('read at 7', 7n))).toBe('read at 7');
    // The fresher answer replaced the older one, for everyone.
    expect(await cache.get('k', async () => 'unused')).toBe('read at 7');
    expect(await cache.getSeeing('k', 8n, readAt('read at 8', 8n))).toBe('read at 8');
  });

  it('reads once for everyone asking while the first read runs', async () => {
    const cache = new AnswerCache<string>({ ttlMs: 1000, maxEntries: 10 });
    let reads = 0;
    let finish: (v: string) => void = () => {};
    const read = () => {
      reads++;
      return new Promise<string>((resolve) => {
        finish = resolve;
      });
    };
    const asked = [cache.get('k', read), cache.get('k', read), cache.get('k', read)];
    finish('answer');
    expect(await Promise.all(asked)).toEqual(['answer', 'answer', 'answer']);
    expect(reads).toBe(1);
  });

  it('does not keep a failed read', async () => {
    const cache = new AnswerCache<string>({ ttlMs: 1000, maxEntries: 10 });
    await expect(cache.get('k', () => Promise.reject(new Error('database down')))).rejects.toThrow(
      'database down',
    );
    expect(cache.size).toBe(0);
    expect(await cache.get('k', async () => 'back')).toBe('back');
  });

  it('forgets reads still running when cleared, so a read that began before a write is not kept', async () => {
    const cache = new AnswerCache<string>({ ttlMs: 1000, maxEntries: 10 });
    let finish: (v: string) => void = () => {};
    const before = cache.get(
      'k',
      () =>
        new Promise<string>((resolve) => {
          finish = resolve;
        }),
    );
    cache.clear(); // a write is acknowledged while the read runs
    finish('before the write');
    expect(await before).toBe('before the write');
    expect(await cache.get('k', async () => 'after the write')).toBe('after the write');
  });

  it('keeps at most maxEntries answers, dropping the oldest', async () => {
    const cache = new AnswerCache<string>({ ttlMs: 1000, maxEntries: 2 });
    for (const key of ['a', 'b', 'c']) await cache.get(key, async () => key);
    expect(cache.size).toBe(2);
    expect(await cache.get('a', async () => 'a again')).toBe('a again');
    expect(await cache.get('c', async () => 'c again')).toBe('c');
  });

  it('reads every time when ttlMs is 0', async () => {
    const cache = new AnswerCache<number>({ ttlMs: 0, maxEntries: 10 });
    let reads = 0;
    await cache.get('a', async () => ++reads);
    await cache.get('a', async () => ++reads);
    expect(reads).toBe(2);
  });
});
