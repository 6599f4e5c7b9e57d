/**
 * @fastify/rate-limit's store (its `store` option) over our limit store, for every kind of it:
 * each limited route counts under its own name ("route POST /api/…"), in Redis, PostgreSQL or
 * memory alike, and what a route does when the store fails comes from its `skipOnError`: true
 * lets the call through uncounted, false answers 503 (limit-store.ts, `WhenUncounted`).
 *
 * Redis goes through here too rather than the plugin's own Redis store (which takes an ioredis
 * client): that store's failures reach the error handler as a bare 500, where a route that
 * refuses must answer a 503 that says why; and one way of counting serves every limit.
 */
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Counter, LimitStore } from './limit-store';

/** What the plugin hands a store: its settings merged with a route's, and the route. */
type StoreParams = {
  skipOnError?: boolean;
  cache?: number;
  routeInfo?: { method?: string | string[]; url?: string };
};

/** Keys a route's memory counter keeps: the plugin's own store's bound. */
const ROUTE_MAX_KEYS = 5000;

export function routeLimitStore(limits: LimitStore): FastifyRateLimitStoreCtor {
  class RouteLimitStore implements FastifyRateLimitStore {
    private readonly counter: Counter;

    constructor(params: StoreParams) {
      const route = params.routeInfo?.url
        ? `${[params.routeInfo.method].flat().join(',')} ${params.routeInfo.url}`
        : 'every route';
      this.counter = limits.counter(`route ${route}`, {
        whenUncounted: params.skipOnError ? 'allow' : 'refuse',
        maxKeys: params.cache ?? ROUTE_MAX_KEYS,
      });
    }

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
      max?: number,
    ): void {
      this.counter.hit(key, timeWindow, max).then(
        // Not counted (the store is down and the route allows): nothing is used up.
        (hit) =>
          callback(
            null,
            hit ? { current: hit.count, ttl: hit.ttlMs } : { current: 0, ttl: timeWindow },
          ),
        (err: Error) => callback(err),
      );
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      return new RouteLimitStore(routeOptions as StoreParams);
    }
  }
  return RouteLimitStore as unknown as FastifyRateLimitStoreCtor;
}
