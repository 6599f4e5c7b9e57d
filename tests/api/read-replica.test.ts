/**
 * Read replicas (issue 32, decision 048): with DATABASE_READ_URL, anyone's catalog reads are the
 * replica's, while a person always reads their own writes. The standby here replays every
 * commit 400 ms late on purpose (`recovery_min_apply_delay`), so a router that sent a person's
 * reads to it without comparing WAL positions would miss the booking just made nearly every time.
 * Needs PostgreSQL's server binaries (initdb, pg_basebackup); skipped, saying so, without.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type PostgresWithReplica,
  replicaMissing,
  startPostgresWithReplica,
} from '../../scripts/lib/postgres-replica';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { type Database, openDatabase } from '../../src/server/db/client';
import { parseLsn } from '../../src/server/db/read-router';
import { users } from '../../src/server/db/schema';
import { POSITION_COOKIE } from '../../src/server/plugins/read-routing';
import { type Account, createAccount } from '../helpers/accounts';
import { createProduct } from '../helpers/factories';

const missing = replicaMissing();
const APPLY_DELAY_MS = 400;
const TOKEN = `metrics-${randomBytes(16).toString('hex')}`;
/** Bookings a buyer may make in a minute (routes/buying.ts): ten buyers make the hundred. */
const BOOKINGS_PER_BUYER = 10;
const ROUNDS = 100;

describe.skipIf(missing)(
  `Read replica with read-your-writes${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    let postgres: PostgresWithReplica;
    let database: Database;
    let app: FastifyInstance;
    let cachingApp: FastifyInstance;
    let dataDir: string;
    let seller: Account;

    beforeAll(async () => {
      postgres = await startPostgresWithReplica({ applyDelayMs: APPLY_DELAY_MS });
      database = await openDatabase({ url: postgres.primaryUrl, readUrl: postgres.replicaUrl });
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'phone-market-replica-'));
      const config = loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATA_DIR: dataDir,
        DATABASE_URL: postgres.primaryUrl,
        DATABASE_READ_URL: postgres.replicaUrl,
        METRICS_TOKEN: TOKEN,
        // Every read reaches a database, so the counters count each one.
        PUBLIC_CACHE_MS: '0',
        SIGN_UPS_PER_ADDRESS: '1000000',
        SIGN_UPS_IN_ALL: '1000000',
        IDENTITY_RATE_LIMIT: '0',
      });
      app = await buildApp({ config, database });
      // A second server on the same database and secrets, keeping public answers as production
      // does (decision 015), for long enough to hand out one read before a write.
      cachingApp = await buildApp({ config: { ...config, PUBLIC_CACHE_MS: 60_000 }, database });
      seller = await createAccount(app, 'seller');
    }, 120_000);

    afterAll(async () => {
      await app?.close();
      await cachingApp?.close();
      await database?.close();
      postgres?.stop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    /** The routed reads so far, by pool, as the metrics show them. */
    async function readsByPool() {
      const res = await app.inject({
        url: '/api/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(res.statusCode).toBe(200);
      const count = (pool: string) =>
        Number(
          new RegExp(`^phone_market_database_reads_total\\{pool="${pool}"\\} (\\d+)$`, 'm').exec(
            res.body,
          )?.[1] ?? 0,
        );
      return { primary: count('primary'), replica: count('replica') };
    }

    async function phones(count: number) {
      const [record] = await database.db.select().from(users).where(eq(users.email, seller.email));
      return Promise.all(
        Array.from({ length: count }, () =>
          createProduct(database.db, record as typeof users.$inferSelect),
        ),
      );
    }

    const positionCookie = (res: LightMyRequestResponse) =>
      res.cookies.find((c) => c.name === POSITION_COOKIE);

    /** How far the standby has replayed, asked on a connection of its own. */
    async function replayed(): Promise<bigint> {
      const client = new pg.Client({ connectionString: postgres.replicaUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ lsn: string }>(
          'select pg_last_wal_replay_lsn()::text as lsn',
        );
        return parseLsn(rows[0]?.lsn ?? '') ?? 0n;
      } finally {
        await client.end();
      }
    }

    it('shows a buyer the booking they just made in My Orders, every time, while the replica lags', async () => {
      const buyers = await Promise.all(
        Array.from({ length: ROUNDS / BOOKINGS_PER_BUYER }, () => createAccount(app, 'user')),
      );
      const forSale = await phones(ROUNDS);
      const before = await readsByPool();
      let seen = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const buyer = buyers[Math.floor(round / BOOKINGS_PER_BUYER)] as Account;
        const booked = await app.inject({
          method: 'POST',
          url: '/api/order',
          headers: buyer.bearer,
          payload: { productId: forSale[round]?.id, location: 'Cafe', number: '1' },
        });
        expect(booked.statusCode, booked.body).toBe(200);
        const cookie = positionCookie(booked);
        expect(cookie?.httpOnly).toBe(true);
        expect(cookie?.sameSite).toBe('Lax');
        // The browser sends the cookie back with its next request, as it would.
        const orders = await app.inject({
          url: `/api/order?email=${encodeURIComponent(buyer.email)}`,
          headers: { ...buyer.bearer, cookie: `${POSITION_COOKIE}=${cookie?.value}` },
        });
        expect(orders.statusCode, orders.body).toBe(200);
        const ids = (orders.json() as { _id: string }[]).map((o) => o._id);
        if (ids.includes(booked.json().insertedId)) seen++;
      }
      expect(seen).toBe(ROUNDS);
      // The replica was behind each booking, so My Orders read the primary.
      const after = await readsByPool();
      expect(after.primary - before.primary).toBe(ROUNDS);
    }, 60_000);

    it('reads a person from the replica again once it has replayed their write', async () => {
      const buyer = await createAccount(app, 'user');
      const [phone] = await phones(1);
      const booked = await app.inject({
        method: 'POST',
        url: '/api/order',
        headers: buyer.bearer,
        payload: { productId: phone?.id, location: 'Cafe', number: '1' },
      });
      expect(booked.statusCode, booked.body).toBe(200);
      const cookie = positionCookie(booked)?.value ?? '';
      const position = parseLsn(cookie) as bigint;
      const deadline = Date.now() + 10_000;
      while ((await replayed()) < position && Date.now() < deadline) await sleep(50);
      const before = await readsByPool();
      const orders = await app.inject({
        url: `/api/order?email=${encodeURIComponent(buyer.email)}`,
        headers: { ...buyer.bearer, cookie: `${POSITION_COOKIE}=${cookie}` },
      });
      expect(orders.json().map((o: { _id: string }) => o._id)).toContain(booked.json().insertedId);
      const after = await readsByPool();
      expect(after).toEqual({ primary: before.primary, replica: before.replica + 1 });
    });

    it('never hands a person a kept public answer read before their own write', async () => {
      const [phone] = await phones(1);
      const page = (headers: Record<string, string> = {}) =>
        cachingApp.inject({ url: `/api/products/${phone?.id}`, headers });
      await expect
        .poll(async () => (await page()).statusCode, { timeout: 10_000, interval: 100 })
        .toBe(200);
      const withdrawn = await cachingApp.inject({
        method: 'POST',
        url: `/api/products/${phone?.id}/withdraw`,
        headers: seller.bearer,
      });
      expect(withdrawn.statusCode, withdrawn.body).toBe(200);
      const cookie = `${POSITION_COOKIE}=${positionCookie(withdrawn)?.value}`;
      // Anyone's read right after it is the lagging replica's, and is kept a minute.
      expect((await page()).json().product.status).toBe('available');
      expect((await page()).json().product.status).toBe('available');
      // The seller's own read is not that kept answer.
      const own = await page({ ...seller.bearer, cookie });
      expect(own.json().product.status).toBe('withdrawn');
    });

    it('serves anonymous catalog, search and phone-page reads from the replica', async () => {
      const [phone] = await phones(1);
      // Anyone's reads may lag: wait until the replica has the phone, to read its page there.
      await expect
        .poll(async () => (await app.inject(`/api/products/${phone?.id}`)).statusCode, {
          timeout: 10_000,
          interval: 100,
        })
        .toBe(200);
      const before = await readsByPool();
      const urls = [
        '/api/category',
        '/api/category/01',
        '/api/advertise',
        '/api/search?q=phone',
        `/api/products/${phone?.id}`,
      ];
      for (const url of urls) {
        const res = await app.inject(url);
        expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
        expect(res.cookies).toEqual([]);
      }
      // What anyone may post leaves no position: it is not read back, and a visitor with one
      // would not share the answers kept for anyone.
      const beacon = await app.inject({
        method: 'POST',
        url: '/api/vitals',
        payload: { name: 'LCP', value: 812.4, rating: 'good', id: 'v5-1', path: '/' },
      });
      expect(beacon.statusCode).toBe(204);
      expect(beacon.cookies).toEqual([]);
      // A position cookie that is no LSN counts as none: read, from the replica.
      for (const value of ['zzz', '1/2/3', '', 'FFFFFFFFF/0', '%00', '0/0; wal-position=x']) {
        const res = await app.inject({
          url: '/api/category/01',
          headers: { cookie: `${POSITION_COOKIE}=${value}` },
        });
        expect(res.statusCode, value).toBe(200);
      }
      const after = await readsByPool();
      expect(after.replica - before.replica).toBe(urls.length + 6);
      expect(after.primary).toBe(before.primary);
    });

    it('reads the catalog from the primary when the replica is gone', async () => {
      postgres.stopReplica();
      const before = await readsByPool();
      for (const url of ['/api/category/01', '/api/search?q=phone', '/api/category/01']) {
        const res = await app.inject(url);
        expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      }
      const after = await readsByPool();
      expect(after.primary - before.primary).toBe(3);
      expect(after.replica).toBe(before.replica);
    });
  },
);
