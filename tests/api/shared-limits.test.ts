/**
 * N servers together allow what one allows (issue 21): two servers on one database, as behind a
 * load balancer, share the card tries, the token requests, the sign-in lockout and the identity
 * provider's own limiter, counted in PostgreSQL (the database is PostgreSQL) or in Redis
 * (REDIS_URL). In memory, the embedded default of one server, each counts its own. While the
 * shared store fails, limits against floods let calls through and limits against guessing
 * answer 503: never a 500. PostgreSQL's expired counts are pruned; a server told to count in a
 * Redis it cannot reach does not start. The Redis here is a real `redis-server` on loopback.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import type { Database } from '../../src/server/db/client';
import { rateLimitHits } from '../../src/server/db/schema';
import { PostgresLimitBackend } from '../../src/server/limits/postgres-limit-backend';
import {
  RedisLimitBackend,
  RedisUnreachableError,
} from '../../src/server/limits/redis-limit-backend';
import {
  type Account,
  createAccount,
  GOOD_PASSWORD,
  SAME_SITE,
  signIn,
  signUp,
  uniqueEmail,
} from '../helpers/accounts';
import { buyingCalls } from '../helpers/buying';
import { startRedisServer, type TestRedisServer } from '../helpers/redis-server';
import { buildTestApp, createTestDatabase, type TestApp } from '../helpers/test-app';

const onPostgres = inject('postgresUrl') !== null;

/** Stripe's test card that is always declined: every try is a wrong guess. */
const DECLINED = { number: '4000000000000002', expMonth: 12, expYear: 2034, cvc: '123' };
/** The identity provider's own limit on each identity path, per address, in these tests. */
const PROVIDER_LIMIT = 20;

/** Two servers on one database and one set of secrets; `servers[i % 2]` alternates them. */
function twoServers(env: () => Record<string, string>) {
  const pair = {} as { t: TestApp; servers: FastifyInstance[]; seller: Account };
  beforeAll(async () => {
    pair.t = await buildTestApp({ IDENTITY_RATE_LIMIT: String(PROVIDER_LIMIT), ...env() });
    const other = await buildApp({ config: pair.t.app.config, database: pair.t.database });
    pair.servers = [pair.t.app, other];
    pair.seller = await createAccount(pair.t.app, 'seller');
  });
  afterAll(async () => {
    await pair.servers?.[1]?.close();
    await pair.t?.close();
  });
  const { phone, bookedOrder, intentFor } = buyingCalls(() => pair);

  /** A payment intent of a new buyer's order, to try cards against. */
  const clientSecret = async (): Promise<string> => {
    const buyer = await createAccount(pair.t.app, 'user');
    const order = await bookedOrder(buyer, (await phone()).id);
    return (await intentFor(buyer, order.id)).json().clientSecret;
  };
  const tryCard = (server: FastifyInstance, secret: string) =>
    server.inject({
      method: 'POST',
      url: '/api/test-payments/confirm',
      payload: {
        clientSecret: secret,
        card: DECLINED,
        billingDetails: { name: 'Buyer', email: 'buyer@test.example' },
      },
    });
  const token = (server: FastifyInstance, account: { email: string; cookie: string }) =>
    server.inject({ url: `/api/jwt?email=${account.email}`, headers: { cookie: account.cookie } });
  const server = (i: number) => pair.servers[i % 2] as FastifyInstance;
  return { pair, clientSecret, tryCard, token, server };
}

/** Statuses of `times` calls made through the two servers in turn. */
async function alternating(
  times: number,
  call: (i: number) => Promise<{ statusCode: number }>,
): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) statuses.push((await call(i)).statusCode);
  return statuses;
}

const repeat = (status: number, times: number): number[] => Array(times).fill(status);

/** The store the two servers share, and how to take it away for a while and bring it back. */
type SharedStore = {
  env: () => Record<string, string>;
  fail: (t: TestApp) => Promise<void>;
  mend: (t: TestApp) => Promise<void>;
};

function describeShared(name: string, run: boolean, store: SharedStore) {
  describe.runIf(run)(`limits counted in ${name}`, () => {
    const { pair, clientSecret, tryCard, token, server } = twoServers(store.env);

    it('lets the two servers together try 10 cards against one payment intent', async () => {
      const secret = await clientSecret();
      const statuses = await alternating(12, (i) => tryCard(server(i), secret));
      expect(statuses).toEqual([...repeat(402, 10), 429, 429]);
    });

    it('gives an identity 30 access tokens a minute across both servers', async () => {
      // Signing up took the first token of the minute, on the first server.
      const buyer = await createAccount(pair.t.app, 'user');
      const statuses = await alternating(30, (i) => token(server(i), buyer));
      expect(statuses).toEqual([...repeat(200, 29), 429]);
    });

    it('locks an e-mail out after 5 sign-in tries across both servers, and a success on one clears them for both', async () => {
      const { email } = await signUp(pair.t.app);
      const wrong = (i: number) => signIn(server(i), email, `Wrong-guess${i}!`);
      expect(await alternating(4, wrong)).toEqual(repeat(401, 4));
      expect((await signIn(server(1), email, GOOD_PASSWORD)).statusCode).toBe(200);
      expect(await alternating(6, wrong)).toEqual([...repeat(401, 5), 429]);
      const right = await signIn(server(1), email, GOOD_PASSWORD);
      expect(right.statusCode).toBe(429);
      expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    });

    it("counts the identity provider's own limiter once for both servers", async () => {
      // A new e-mail each time, so the lockout never stops one: only the provider's limit does.
      const statuses = await alternating(PROVIDER_LIMIT + 1, (i) =>
        server(i).inject({
          method: 'POST',
          url: '/api/auth/sign-in/email',
          headers: SAME_SITE,
          remoteAddress: '192.0.2.44',
          payload: { email: uniqueEmail('spray'), password: 'Spray-pass1!' },
        }),
      );
      expect(statuses).toEqual([...repeat(401, PROVIDER_LIMIT), 429]);
    });

    it('lets flood limits through and refuses guesses with 503 while the store fails, then counts again', async () => {
      const buyer = await createAccount(pair.t.app, 'user');
      const secret = await clientSecret();
      const account = await signUp(pair.t.app);
      await store.fail(pair.t);
      try {
        for (const s of pair.servers) {
          expect((await token(s, buyer)).statusCode).toBe(200);
          const card = await tryCard(s, secret);
          expect(card.statusCode).toBe(503);
          expect(card.json().message).toBe(
            'This cannot be checked just now. Try again in a moment.',
          );
          const signingIn = await signIn(s, account.email, GOOD_PASSWORD);
          expect(signingIn.statusCode).toBe(503);
          expect(signingIn.json().message).toMatch(/^Sign-in is unavailable for a moment/);
          const newcomer = await s.inject({
            method: 'POST',
            url: '/api/auth/sign-up/email',
            headers: SAME_SITE,
            payload: { email: uniqueEmail('newcomer'), name: 'Newcomer', password: GOOD_PASSWORD },
          });
          expect(newcomer.statusCode).toBe(200);
        }
      } finally {
        await store.mend(pair.t);
      }
      // Counted again on each server once the store is back (its client reconnects within a
      // few seconds): a card is tried again, declined or past the limit, no longer refused.
      for (const s of pair.servers) {
        const deadline = Date.now() + 10_000;
        let status = 503;
        while (status === 503 && Date.now() < deadline) {
          status = (await tryCard(s, secret)).statusCode;
          if (status === 503) await new Promise((resolve) => setTimeout(resolve, 200));
        }
        expect([402, 429]).toContain(status);
      }
      expect((await signIn(server(1), account.email, GOOD_PASSWORD)).statusCode).toBe(200);
    });
  });
}

describeShared('PostgreSQL', onPostgres, {
  env: () => ({}),
  // A hiccup of the database as the limits see it: their table is away for a while.
  fail: (t) => renameLimitTable(t, 'rate_limit_hits', 'rate_limit_hits_away'),
  mend: (t) => renameLimitTable(t, 'rate_limit_hits_away', 'rate_limit_hits'),
});

async function renameLimitTable(t: TestApp, from: string, to: string) {
  await t.database.db.execute(sql.raw(`alter table ${from} rename to ${to}`));
}

// The file's hooks run around each of its suites: Redis is up before their servers start and
// stops after they close. Without redis-server this fails, saying how to install it.
let redis: TestRedisServer | undefined;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.close();
});

describeShared('Redis', true, {
  env: () => ({ REDIS_URL: (redis as TestRedisServer).url }),
  fail: async () => {
    await redis?.close();
  },
  mend: async () => {
    redis = await startRedisServer({ port: redis?.port });
  },
});
describe('a server told to count in Redis', () => {
  it('does not start, naming REDIS_URL, when that Redis cannot be reached', async () => {
    const away = await startRedisServer();
    await away.close();
    const connecting = RedisLimitBackend.connect(away.url);
    await expect(connecting).rejects.toBeInstanceOf(RedisUnreachableError);
    await expect(connecting).rejects.toThrow(
      `REDIS_URL: Redis at 127.0.0.1:${away.port} cannot be reached (connect ECONNREFUSED`,
    );
  });
});

describe.runIf(!onPostgres)('limits counted in memory (the embedded default)', () => {
  const { clientSecret, tryCard, server } = twoServers(() => ({}));

  it("counts in each server's own memory: one server is one server's limit", async () => {
    const secret = await clientSecret();
    const first = await alternating(11, () => tryCard(server(0), secret));
    expect(first).toEqual([...repeat(402, 10), 429]);
    expect((await tryCard(server(1), secret)).statusCode).toBe(402);
  });
});

describe('the PostgreSQL store', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.close());

  it('removes the counts whose window has passed, a thousand at a time, and keeps the live ones', async () => {
    const past = new Date(Date.now() - 60_000);
    const expired = Array.from({ length: 2500 }, (_, i) => ({
      key: `expired-${i}`,
      count: 3,
      resetAt: past,
    }));
    for (let i = 0; i < expired.length; i += 500) {
      await database.db.insert(rateLimitHits).values(expired.slice(i, i + 500));
    }
    const pruneErrors: unknown[] = [];
    const backend = new PostgresLimitBackend(database.db, (err) => pruneErrors.push(err));
    const counter = backend.counter('searches');
    expect(await counter.hit('203.0.113.7', 60_000)).toMatchObject({ count: 1 });
    expect(await counter.hit('203.0.113.7', 60_000)).toMatchObject({ count: 2 });
    // The first hit of a server prunes, in the background; closing waits for it.
    await backend.close();
    expect(pruneErrors).toEqual([]);
    const left = await database.db.select().from(rateLimitHits);
    expect(left).toHaveLength(1);
    expect(left[0]?.count).toBe(2);
  });
});
