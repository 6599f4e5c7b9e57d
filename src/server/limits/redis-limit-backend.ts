/**
 * Limits counted in Redis (REDIS_URL), shared by every server that uses it. Each event is one
 * script run inside Redis (count, open the window on the first event, read what is left of it),
 * the same step as @fastify/rate-limit's own Redis store; Redis removes a key when its window
 * ends, so nothing needs pruning.
 */
import { Redis, type Result } from 'ioredis';
import { ConfigError } from '../config';
import { type CounterBackend, type Hit, type LimitBackend, storedKey } from './limit-backend';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** Counts one event of KEYS[1] in a window of ARGV[1] ms: [events so far, ms left]. */
    countLimitHit(key: string, windowMs: number): Result<[number, number], Context>;
  }
}

const COUNT_HIT = `
  local count = redis.call('INCR', KEYS[1])
  if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
  local ttl = redis.call('PTTL', KEYS[1])
  -- A key left without an expiry (written by hand, or a step cut short) would lock for ever.
  if ttl < 0 then
    redis.call('PEXPIRE', KEYS[1], ARGV[1])
    ttl = tonumber(ARGV[1])
  end
  return {count, ttl}
`;

/** REDIS_URL names a Redis this server cannot reach: the start stops with this message. */
/** A setting that turns out unusable: the start says so in one message (server.ts). */
export class RedisUnreachableError extends ConfigError {}

/** Every key of ours starts so, apart from anything else kept in the same Redis. */
const PREFIX = 'phone-market:limit:';

export class RedisLimitBackend implements LimitBackend {
  readonly kind = 'redis';

  private constructor(private readonly client: Redis) {
    client.defineCommand('countLimitHit', { numberOfKeys: 1, lua: COUNT_HIT });
  }

  /**
   * Connects, or fails the start naming REDIS_URL: a server told to share its limits must not
   * quietly count alone. Once started, a call made while Redis is away fails at once (nothing
   * waits in a queue) and each limit's policy decides (limit-store.ts); the client reconnects.
   */
  static async connect(url: string): Promise<RedisLimitBackend> {
    const client = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      connectTimeout: 2000,
      // A Redis that hangs must not hold requests: past this the call counts as failed.
      commandTimeout: 1000,
      maxRetriesPerRequest: 0,
    });
    // Connection errors also fail the calls made meanwhile; that is where they are reported.
    let lost: Error | undefined;
    client.on('error', (err: Error) => {
      lost = err;
    });
    try {
      await client.connect();
    } catch (err) {
      client.disconnect();
      const { host, port } = client.options;
      const reason = (lost ?? (err as Error)).message;
      throw new RedisUnreachableError(
        `REDIS_URL: Redis at ${host}:${port} cannot be reached (${reason})`,
      );
    }
    return new RedisLimitBackend(client);
  }

  counter(name: string): CounterBackend {
    return {
      hit: async (key, windowMs): Promise<Hit> => {
        const [count, ttlMs] = await this.client.countLimitHit(
          PREFIX + storedKey(name, key),
          windowMs,
        );
        return { count, ttlMs };
      },
      reset: async (key) => {
        await this.client.del(PREFIX + storedKey(name, key));
      },
    };
  }

  async close(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
