/**
 * Counts events per key in a fixed window (failed sign-ins per client address and normalised
 * e-mail, sign-ups per address and in all); past the limit, further tries wait for the window. Bounded: at most `maxKeys` keys are kept, the least
 * recently used going first, and an entry whose window has passed is dropped when read, so a
 * stream of made-up keys cannot grow the process's memory.
 */
import { LRUCache } from 'lru-cache';

type Entry = { count: number; resetAt: number };

export type WindowThrottleOptions = {
  limit?: number;
  windowMs?: number;
  maxKeys?: number;
};

export class WindowThrottle {
  private readonly entries: LRUCache<string, Entry>;
  private readonly limit: number;
  private readonly windowMs: number;

  constructor({
    limit = 5,
    windowMs = 15 * 60 * 1000,
    maxKeys = 20_000,
  }: WindowThrottleOptions = {}) {
    this.limit = limit;
    this.windowMs = windowMs;
    this.entries = new LRUCache({ max: maxKeys });
  }

  get size(): number {
    return this.entries.size;
  }

  private live(key: string, now: number): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.resetAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Seconds until the key may try again, or 0 when it may now. */
  retryAfter(key: string, now = Date.now()): number {
    const entry = this.live(key, now);
    if (!entry) return 0;
    return entry.count >= this.limit ? Math.ceil((entry.resetAt - now) / 1000) : 0;
  }

  /** Counts one event for the key. */
  count(key: string, now = Date.now()): void {
    const entry = this.live(key, now);
    if (entry) entry.count++;
    else this.entries.set(key, { count: 1, resetAt: now + this.windowMs });
  }

  /** Forgets the key's events (a successful sign-in clears its failures). */
  reset(key: string): void {
    this.entries.delete(key);
  }
}
