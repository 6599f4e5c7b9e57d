/**
 * Tries per key in a fixed window (sign-in tries per client address and normalised e-mail,
 * sign-ups per address and in all), counted in the limit store every server shares: past the
 * limit, further tries wait for the window. Each try is counted as it is made, in one atomic
 * step, so tries made at once (on one server or on several) cannot all slip in under the limit.
 */
import type { Counter, LimitStore, WhenUncounted } from '../limits/limit-store';

export type WindowThrottleOptions = {
  limit: number;
  windowMs: number;
  /** See `WhenUncounted`: a limit against guessing refuses, one against floods allows. */
  whenUncounted: WhenUncounted;
  /** Keys kept at most by a store in memory (one key for a limit in all). */
  maxKeys?: number;
};

export class WindowThrottle {
  private readonly counter: Counter;
  private readonly limit: number;
  private readonly windowMs: number;

  constructor(
    limits: LimitStore,
    name: string,
    { limit, windowMs, whenUncounted, maxKeys }: WindowThrottleOptions,
  ) {
    this.limit = limit;
    this.windowMs = windowMs;
    this.counter = limits.counter(name, { whenUncounted, maxKeys });
  }

  /**
   * Counts one try for the key: the seconds until it may try again when this try is past the
   * limit, else 0 (also when the store is down and the limit allows). Throws
   * `LimitsUnavailableError` when the store is down and the limit refuses.
   */
  async take(key: string): Promise<number> {
    const hit = await this.counter.hit(key, this.windowMs, this.limit);
    if (!hit || hit.count <= this.limit) return 0;
    return Math.max(1, Math.ceil(hit.ttlMs / 1000));
  }

  /** Forgets the key's tries (a successful sign-in clears them). */
  reset(key: string): Promise<void> {
    return this.counter.reset(key);
  }
}
