/**
 * Limits counted in this process's memory: the embedded default, one server on PGlite. Each
 * limit keeps its own keys, at most `maxKeys` of them with the least recently used going first,
 * and an entry whose window has passed counts as none; so a stream of made-up keys cannot grow
 * the process's memory, nor push one limit's keys (a lockout) out with another's.
 */
import { LRUCache } from 'lru-cache';
import type { CounterBackend, Hit, LimitBackend } from './limit-backend';

type Entry = { count: number; resetAt: number };

export class MemoryLimitBackend implements LimitBackend {
  readonly kind = 'memory';

  /** `now` is the clock (tests move it). */
  constructor(private readonly now: () => number = Date.now) {}

  counter(_name: string, maxKeys: number): MemoryCounter {
    return new MemoryCounter(maxKeys, this.now);
  }

  async close(): Promise<void> {}
}

export class MemoryCounter implements CounterBackend {
  private readonly entries: LRUCache<string, Entry>;

  constructor(
    maxKeys: number,
    private readonly now: () => number,
  ) {
    this.entries = new LRUCache({ max: maxKeys });
  }

  /** Keys kept now. */
  get size(): number {
    return this.entries.size;
  }

  async hit(key: string, windowMs: number): Promise<Hit> {
    const now = this.now();
    const live = this.entries.get(key);
    const entry = live && live.resetAt > now ? live : { count: 0, resetAt: now + windowMs };
    entry.count++;
    this.entries.set(key, entry);
    return { count: entry.count, ttlMs: entry.resetAt - now };
  }

  async reset(key: string): Promise<void> {
    this.entries.delete(key);
  }
}
