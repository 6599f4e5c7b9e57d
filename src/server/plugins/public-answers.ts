/**
 * The public catalog reads (brands, a brand's phones, advertised phones), kept encoded for up to
 * a second (decision 015). Every visitor asks the same few pages, and an answer that has already
 * been checked against the contract and turned into JSON is worth reusing: the process's own
 * writes drop every kept answer before they are acknowledged, so a client never reads a list
 * older than its own write; another process's write shows within `ttlMs`, the same order of lag
 * as the read replicas of the scale path (ARCHITECTURE.md).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AUTH_BASE_PATH } from '../auth/identity-provider';

/**
 * An answer and a WAL position its reading is known to have seen (decision 048): with a read
 * replica, a person who just wrote may reuse only an answer read at or past their write.
 */
export type Seen<T> = { value: T; seen: bigint };

type Entry<T> = { expires: number; value: Promise<Seen<T>> };

export type AnswerCacheOptions = {
  /** How long an answer may be reused, from the moment its reading began. */
  ttlMs: number;
  /** Answers kept at most; the oldest goes first (a client can ask for any page it likes). */
  maxEntries: number;
  now?: () => number;
};

/** Answers by key, each computed once however many ask at the same time, and kept `ttlMs`. */
export class AnswerCache<T> {
  readonly #entries = new Map<string, Entry<T>>();
  readonly #options: Required<AnswerCacheOptions>;

  constructor(options: AnswerCacheOptions) {
    this.#options = { now: Date.now, ...options };
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The kept answer for `key`, else `compute`'s. A failed computation is not kept. */
  get(key: string, compute: () => Promise<T>): Promise<T> {
    return this.getSeeing(key, 0n, async () => ({ value: await compute(), seen: 0n }));
  }

  /**
   * As `get`, for a reader who must see WAL position `need`: a kept answer that has not seen it
   * is not reused, and the one computed instead replaces it.
   */
  async getSeeing(key: string, need: bigint, compute: () => Promise<Seen<T>>): Promise<T> {
    if (this.#options.ttlMs === 0) return (await compute()).value;
    const now = this.#options.now();
    const kept = this.#entries.get(key);
    if (kept && kept.expires > now) {
      if (need === 0n) return (await kept.value).value;
      const answer = await kept.value.catch(() => undefined);
      if (answer && answer.seen >= need) return answer.value;
    }
    if (this.#entries.get(key) === kept) this.#entries.delete(key);

    const entry: Entry<T> = { expires: now + this.#options.ttlMs, value: compute() };
    this.#entries.set(key, entry);
    entry.value.catch(() => {
      if (this.#entries.get(key) === entry) this.#entries.delete(key);
    });
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#options.maxEntries) break;
      this.#entries.delete(oldest);
    }
    return (await entry.value).value;
  }

  /**
   * Forgets every answer, those still being computed included: a reading that began before a
   * write may finish after it, and must not be kept.
   */
  clear(): void {
    this.#entries.clear();
  }
}

/** An encoded answer and the cursor of the page after it. */
export type PublicAnswer = { body: string; nextCursor: string | null };

/**
 * A server-rendered page (decision 016) in each encoding; `bodies` is null for a page the
 * browser renders from the shell, answered with `status`.
 */
export type PublicPage = {
  status: number;
  bodies: Record<'br' | 'gzip' | 'identity', Buffer> | null;
};

declare module 'fastify' {
  interface FastifyInstance {
    publicAnswers: AnswerCache<PublicAnswer>;
    /** Rendered public pages by URL: they show what anyone sees, built from the answers above. */
    publicPages: AnswerCache<PublicPage>;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a request may have changed what the public reads answer. Every unsafe method, and the
 * identity routes whatever the method (a sign-in callback creates an account on a GET): a rule
 * that needs no list of which writes touch the catalog, so a new write cannot forget it.
 */
const mayWrite = (request: FastifyRequest) =>
  !SAFE_METHODS.has(request.method) || request.url.startsWith(AUTH_BASE_PATH);

export default fp(async function publicAnswers(app: FastifyInstance, { ttlMs }: { ttlMs: number }) {
  const answers = new AnswerCache<PublicAnswer>({ ttlMs, maxEntries: 1000 });
  // Pages weigh up to about 40 KB each, so fewer are kept.
  const pages = new AnswerCache<PublicPage>({ ttlMs, maxEntries: 200 });
  app.decorate('publicAnswers', answers);
  app.decorate('publicPages', pages);
  // onSend runs after the handler has committed and before the client hears of it.
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (mayWrite(request)) {
      answers.clear();
      pages.clear();
    }
    done(null, payload);
  });
});
