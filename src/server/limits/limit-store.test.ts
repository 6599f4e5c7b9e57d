import { describe, expect, it } from 'vitest';
import type { LimitBackend } from './limit-backend';
import { LimitStore, LimitsUnavailableError } from './limit-store';
import { type MemoryCounter, MemoryLimitBackend } from './memory-limit-backend';

/** A backend that fails while `down` is true, as Redis or PostgreSQL away for a moment. */
function flaky() {
  const state = { down: false };
  const memory = new MemoryLimitBackend();
  const backend: LimitBackend = {
    kind: 'postgres',
    counter: (name, maxKeys) => {
      const counts = memory.counter(name, maxKeys);
      const unlessDown = <T>(work: () => Promise<T>) =>
        state.down ? Promise.reject(new Error('the store is away')) : work();
      return {
        hit: (key, windowMs) => unlessDown(() => counts.hit(key, windowMs)),
        reset: (key) => unlessDown(() => counts.reset(key)),
      };
    },
    close: async () => {},
  };
  return { state, backend };
}

describe('LimitStore', () => {
  it('counts every event of a key in its window, refused ones too, with the time left', async () => {
    const clock = { now: 0 };
    const store = new LimitStore(new MemoryLimitBackend(() => clock.now));
    const counter = store.counter('tokens', { whenUncounted: 'allow' });
    expect(await counter.hit('a', 60_000)).toEqual({ count: 1, ttlMs: 60_000 });
    clock.now = 15_000;
    expect(await counter.hit('a', 60_000)).toEqual({ count: 2, ttlMs: 45_000 });
    clock.now = 60_000;
    expect(await counter.hit('a', 60_000)).toEqual({ count: 1, ttlMs: 60_000 });
  });

  it('keeps at most maxKeys keys of a limit in memory, and another limit keeps its own', async () => {
    const backend = new MemoryLimitBackend();
    const lockout = backend.counter('sign-in tries', 100);
    await lockout.hit('victim@test.example', 60_000);
    const flood = backend.counter('searches', 100) as MemoryCounter;
    for (let i = 0; i < 10_000; i++) await flood.hit(`made-up-${i}`, 60_000);
    expect(flood.size).toBe(100);
    expect(await lockout.hit('victim@test.example', 60_000)).toMatchObject({ count: 2 });
  });

  it('decides by each limit while its store fails, logs the outage once, and counts again after', async () => {
    const { state, backend } = flaky();
    const lines: string[] = [];
    const store = new LimitStore(backend, {
      info: (_, message) => lines.push(`info: ${message}`),
      warn: (_, message) => lines.push(`warn: ${message}`),
      error: (_, message) => lines.push(`error: ${message}`),
    });
    const flood = store.counter('tokens', { whenUncounted: 'allow' });
    const guessing = store.counter('card tries', { whenUncounted: 'refuse' });
    await flood.hit('a', 60_000);
    state.down = true;
    expect(await flood.hit('a', 60_000)).toBeNull();
    await expect(guessing.hit('a', 60_000)).rejects.toBeInstanceOf(LimitsUnavailableError);
    await expect(guessing.hit('a', 60_000)).rejects.toMatchObject({ statusCode: 503 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: limits cannot be counted/);
    state.down = false;
    expect(await flood.hit('a', 60_000)).toMatchObject({ count: 2 });
    expect(lines[1]).toBe('info: limits are counted again');
  });

  it('refuses a key over its limit without asking a shared store again until its window ends', async () => {
    const { state, backend } = flaky();
    const store = new LimitStore(backend, { info: () => {}, warn: () => {}, error: () => {} });
    const tokens = store.counter('tokens', { whenUncounted: 'refuse' });
    for (let i = 1; i <= 3; i++)
      expect(await tokens.hit('a', 60_000, 2)).toMatchObject({ count: i });
    // The store away: a key known to be over its limit is still refused, from memory.
    state.down = true;
    expect(await tokens.hit('a', 60_000, 2)).toMatchObject({ count: 3 });
    // A key under its limit must ask the store, which is away.
    await expect(tokens.hit('b', 60_000, 2)).rejects.toBeInstanceOf(LimitsUnavailableError);
    state.down = false;
    await tokens.reset('a');
    expect(await tokens.hit('a', 60_000, 2)).toMatchObject({ count: 1 });
  });
});
