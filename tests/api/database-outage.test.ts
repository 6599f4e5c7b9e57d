/**
 * The application rides through losing its database (issue 32, decision 045): a TCP relay stands
 * between the server and PostgreSQL, as haproxy does, and is cut (every connection reset, new
 * ones refused) and then opened again, as a failover does. Meanwhile every call answers 503 with
 * `Retry-After` and changes nothing, health tells the balancer, and once the database is back
 * the same server serves again without a restart: its pool's broken connections are replaced,
 * its listeners listen again and read everything they may have missed (the search counts of
 * decision 034, the live streams of decision 043). PostgreSQL only: PGlite is in the process.
 */

import net, { type AddressInfo, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Database, openDatabase } from '../../src/server/db/client';
import { orders, products } from '../../src/server/db/schema';
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable } from '../../src/server/db/unavailable';
import { type Account, createAccount } from '../helpers/accounts';
import { createProduct, createSeller } from '../helpers/factories';
import { buildTestAppOn, createPostgresDatabase, type TestApp } from '../helpers/test-app';

const postgresUrl = inject('postgresUrl');

/** A relay to PostgreSQL that can be cut (resets, refusals) and opened again on the same port. */
async function startRelay(target: URL) {
  const sockets = new Set<Socket>();
  const serve = () =>
    net.createServer((client) => {
      const upstream = net.connect(Number(target.port), target.hostname);
      for (const [a, b] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        sockets.add(a);
        a.on('close', () => sockets.delete(a));
        a.on('error', () => b.destroy());
        a.pipe(b);
      }
    });
  let server = serve();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    /** Every connection reset, new ones refused: the primary is gone. */
    cut: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.resetAndDestroy();
      });
    },
    /** A primary answers on the same address again. */
    open: async () => {
      server = serve();
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe.skipIf(!postgresUrl)('the database lost and back (PostgreSQL)', () => {
  let created: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let direct: Database;
  let database: Database;
  let app: FastifyInstance;
  let t: TestApp;
  let buyer: Account;
  let phoneId: string;

  beforeAll(async () => {
    created = await createPostgresDatabase(postgresUrl as string);
    // The test's own view of the database, beside the relay: it writes while the server cannot.
    direct = await openDatabase({ url: created.url });
    const target = new URL(created.url);
    relay = await startRelay(target);
    const relayed = new URL(created.url);
    relayed.port = String(relay.port);
    database = await openDatabase({ url: relayed.toString() });
    t = await buildTestAppOn(database, { SEARCH_COUNTS: 'memory' });
    app = t.app;
    await app.listen({ port: 0, host: '127.0.0.1' });
    buyer = await createAccount(app, 'user');
    const seller = await createSeller(direct.db);
    phoneId = (await createProduct(direct.db, seller, { modelName: 'Outage Phone One' })).id;
    await waitFor(async () => app.searchCounts?.ready === true, 'the search counts read');
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await relay?.close();
    await direct?.close();
    await created?.drop();
  });

  async function waitFor(ok: () => Promise<boolean>, what: string, ms = 20_000) {
    const deadline = Date.now() + ms;
    while (!(await ok())) {
      if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
      await sleep(100);
    }
  }

  const url = (p: string) => `http://127.0.0.1:${(app.server.address() as AddressInfo).port}${p}`;

  it('answers 503 with Retry-After while it is away, changes nothing, and serves again once it is back', async () => {
    const events = await fetch(url('/api/events'), {
      headers: { ...buyer.bearer, accept: 'text/event-stream' },
    });
    expect(events.status).toBe(200);
    const reader = (events.body as ReadableStream<Uint8Array>).getReader();
    let streamed = '';
    const reading = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        streamed += new TextDecoder().decode(value);
      }
    })().catch(() => undefined);

    expect((await fetch(url('/api/health'))).status).toBe(200);
    const phonesBefore = app.searchCounts?.phones ?? 0;

    // Cut while a transaction holds a connection between two statements: that transaction
    // fails as an outage, and the connection's error does not bring the process down.
    const held = database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await relay.cut();
      await sleep(200);
      await tx.execute(sql`select 1`);
    });
    await expect(held).rejects.toSatisfy(isDatabaseUnavailable);

    const health = await fetch(url('/api/health'));
    expect(health.status).toBe(503);
    for (const call of [
      () => fetch(url('/api/category/01')),
      () => fetch(url(`/api/products/${phoneId}`)),
      () =>
        fetch(url('/api/order'), {
          method: 'POST',
          headers: { ...buyer.bearer, 'content-type': 'application/json' },
          body: JSON.stringify({ productId: phoneId, location: 'Cafe', number: '1' }),
        }),
    ]) {
      const res = await call();
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('2');
      expect(await res.json()).toEqual({ message: DATABASE_UNAVAILABLE });
    }
    // The identity provider's own 500 is answered as every other call's outage.
    const signIn = await fetch(url('/api/auth/sign-in/email'), {
      method: 'POST',
      headers: { origin: url(''), 'content-type': 'application/json' },
      body: JSON.stringify({ email: buyer.email, password: buyer.password }),
    });
    // (the sign-in guard cannot count failed tries without its store: its own 503 says 5 s)
    expect(signIn.status).toBe(503);
    expect(Number(signIn.headers.get('retry-after'))).toBeGreaterThan(0);
    const signUp = await fetch(url('/api/auth/sign-up/email'), {
      method: 'POST',
      headers: { origin: url(''), 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'new-in-outage@test.example',
        name: 'New',
        password: buyer.password,
      }),
    });
    expect(signUp.status).toBe(503);
    expect(signUp.headers.get('retry-after')).toBe('2');
    expect((await signUp.json()).message).toBe(DATABASE_UNAVAILABLE);
    // The booking asked while the database was away wrote nothing.
    expect(await direct.db.select().from(orders).where(eq(orders.productId, phoneId))).toEqual([]);

    // A phone listed meanwhile by another server: its notice is not heard by this one.
    const seller = await createSeller(direct.db);
    const listedMeanwhile = await createProduct(direct.db, seller, {
      modelName: 'Outage Phone Two',
    });

    await relay.open();
    await waitFor(
      async () => (await fetch(url('/api/health'))).status === 200,
      'health answers 200 again',
    );
    const page = await fetch(url(`/api/products/${listedMeanwhile.id}`));
    expect(page.status).toBe(200);
    const booked = await fetch(url('/api/order'), {
      method: 'POST',
      headers: { ...buyer.bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ productId: phoneId, location: 'Cafe', number: '1' }),
    });
    expect(booked.status).toBe(200);
    expect(await direct.db.select().from(orders).where(eq(orders.productId, phoneId))).toHaveLength(
      1,
    );

    // The search counts listened again and read everything: the phone they never heard of counts.
    await waitFor(
      async () => app.searchCounts?.ready === true && app.searchCounts.phones === phonesBefore + 1,
      'the search counts read everything again',
    );
    // The live stream was told to ask again for all it shows.
    await waitFor(
      async () => streamed.includes('event: reconnected\n'),
      'the page told to read again',
    );
    await reader.cancel();
    await reading;
    expect(await direct.db.select().from(products).where(eq(products.id, phoneId))).toHaveLength(1);
  }, 60_000);
});

describe.skipIf(!postgresUrl)('a sign-up cut between its two writes (PostgreSQL)', () => {
  it('leaves no account without its password: the person and the password are one transaction', async () => {
    const created = await createPostgresDatabase(postgresUrl as string);
    const database = await openDatabase({ url: created.url });
    const { app, close } = await buildTestAppOn(database);
    try {
      // The password's write fails as a failover would fail it (57P01, the server going away),
      // after the person's row was written.
      await database.db.execute(sql`
        create function cut_sign_up() returns trigger language plpgsql as $$
        begin
          if exists (select 1 from auth_users where id = new.user_id and email like 'cut-%') then
            raise exception 'terminating connection due to administrator command'
              using errcode = '57P01';
          end if;
          return new;
        end $$`);
      await database.db.execute(
        sql`create trigger cut_sign_up before insert on auth_accounts for each row execute function cut_sign_up()`,
      );
      const email = 'cut-sign-up@test.example';
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        headers: { origin: 'http://localhost' },
        payload: { email, name: 'Cut', password: 'Phone-Market1!' },
      });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('2');
      // Asked again once the database is back, the sign-up succeeds: nothing half made stands in its way.
      const { rows } = (await database.db.execute(
        sql`select count(*)::int as n from auth_users where email = ${email}`,
      )) as unknown as { rows: { n: number }[] };
      expect(rows[0]?.n).toBe(0);
      await database.db.execute(sql`drop trigger cut_sign_up on auth_accounts`);
      const again = await app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        headers: { origin: 'http://localhost' },
        payload: { email, name: 'Cut', password: 'Phone-Market1!' },
      });
      expect(again.statusCode).toBe(200);
    } finally {
      await close();
      await created.drop();
    }
  }, 60_000);
});

describe.skipIf(!postgresUrl)(
  'a change of payout account while its limit store fails over (PostgreSQL)',
  () => {
    it('answers 503, changes nothing, and logs a warning, not an error to look at', async () => {
      const created = await createPostgresDatabase(postgresUrl as string);
      const database = await openDatabase({ url: created.url });
      const logged: string[] = [];
      const { app, close } = await buildTestAppOn(
        database,
        { LOG_LEVEL: 'warn' },
        { logStream: { write: (line) => logged.push(line) } },
      );
      try {
        const seller = await createAccount(app, 'seller');
        // The count of password tries fails as a failover fails it (57P01, the server going away).
        await database.db.execute(sql`
        create function cut_counts() returns trigger language plpgsql as $$
        begin
          if new.key like 'payout password tries%' then
            raise exception 'terminating connection due to administrator command'
              using errcode = '57P01';
          end if;
          return new;
        end $$`);
        await database.db.execute(
          sql`create trigger cut_counts before insert on rate_limit_hits for each row execute function cut_counts()`,
        );
        const res = await app.inject({
          method: 'PUT',
          url: '/api/payouts/account',
          headers: seller.bearer,
          payload: {
            routingNumber: '110000000',
            accountNumber: '000123456789',
            password: seller.password,
          },
        });
        expect(res.statusCode).toBe(503);
        expect(res.json().message).toMatch(/^Payout accounts cannot be changed just now/);
        const { rows } = (await database.db.execute(
          sql`select count(*)::int as n from payout_accounts`,
        )) as unknown as { rows: { n: number }[] };
        expect(rows[0]?.n).toBe(0);
        const levels = logged.map((line) => JSON.parse(line) as { level: number; msg: string });
        expect(levels.filter((l) => l.level >= 50)).toEqual([]);
        expect(levels.map((l) => l.msg)).toContain(
          'Payout accounts cannot be changed just now; try again in a minute',
        );
      } finally {
        await close();
        await created.drop();
      }
    }, 60_000);
  },
);
