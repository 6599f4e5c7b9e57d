/**
 * Two real servers on one empty PostgreSQL behind haproxy (issue 21): started at the same moment
 * they migrate and seed once; a session and a token made on one work on the other; a photo
 * uploaded through one is read through the other from object storage; limits add up to one
 * server's; a draining server leaves the rotation with no request failed; a server started
 * with other secrets refuses to start, naming the variable. PostgreSQL only: on PGlite there is
 * one process per database by design (the PGlite run skips this file).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Cluster, startCluster } from '../../scripts/lib/cluster';
import { queryOnce } from '../../scripts/lib/postgres-query';
import { startServer } from '../../scripts/lib/server-process';
import { SSR_STATE_ID } from '../../src/shared/page-rendering';
import { uniqueImei, uniqueWord } from '../helpers/factories';
import { withDatabase } from '../helpers/postgres-url';
import { type S3Server, startS3Server } from '../helpers/s3-server';

const postgresUrl = inject('postgresUrl') ?? undefined;
const DEMO_SELLER_EMAIL = 'seller@example.com';
const METRICS_TOKEN = 'cluster-metrics-token';

describe.skipIf(!postgresUrl)('two servers on one PostgreSQL behind a load balancer', () => {
  let cluster: Cluster;
  let store: S3Server;
  let databaseUrl: string;
  let dataDir: string;
  let password: string;
  let dropDatabase: () => Promise<void>;

  const sql = <T extends pg.QueryResultRow>(text: string): Promise<T[]> =>
    queryOnce<T>(databaseUrl, text);

  beforeAll(async () => {
    // An empty database, not the migrated template: the servers' start must do everything.
    const name = `phone_market_cluster_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    databaseUrl = withDatabase(postgresUrl as string, name);
    dropDatabase = async () => {
      const dropper = new pg.Client({ connectionString: postgresUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    };
    store = await startS3Server({ bucket: 'photos' });
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'phone-market-cluster-'));
    cluster = await startCluster({
      servers: 2,
      databaseUrl,
      dataDir,
      env: {
        ...store.env,
        SEED_DEMO: '1',
        DRAIN_MS: '2500',
        TIMED_WORK_MS: '1000',
        METRICS_TOKEN,
      },
      startTimeoutMs: 240_000,
    });
    password = (await readFile(path.join(dataDir, 'secrets', 'demo-password'), 'utf8')).trim();
  }, 300_000);

  afterAll(async () => {
    await cluster?.stop();
    await store?.close();
    await dropDatabase?.();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  const serverUrl = (i: number) => cluster.servers[i]?.url as string;
  const first = () => serverUrl(0);
  const second = () => serverUrl(1);
  const origin = () => cluster.url;

  /** Signs in on `base` and answers the session cookie. */
  const signIn = async (base: string, email: string, pass = password) => {
    const response = await fetch(`${base}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: origin() },
      body: JSON.stringify({ email, password: pass }),
    });
    const cookie = response.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    return { status: response.status, cookie };
  };
  const tokenFrom = async (base: string, cookie: string, email: string) => {
    const response = await fetch(`${base}/api/jwt?email=${encodeURIComponent(email)}`, {
      headers: { cookie },
    });
    return { status: response.status, body: (await response.json()) as { accessToken?: string } };
  };

  /** Uploads a photo through `base` as the token's seller; answers its URL. */
  const uploadPhoto = async (base: string, accessToken: string) => {
    const sharp = (await import('sharp')).default;
    const photo = await sharp({
      create: { width: 640, height: 480, channels: 3, background: { r: 30, g: 140, b: 200 } },
    })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'phone.jpg');
    const upload = await fetch(`${base}/api/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}` },
      body: form,
    });
    expect(upload.status).toBe(200);
    return ((await upload.json()) as { data: { url: string } }).data;
  };

  it('started at once on an empty database, both are healthy, migrated and seeded once', async () => {
    for (const base of [first(), second(), cluster.url]) {
      expect((await fetch(`${base}/api/health`)).status).toBe(200);
    }
    const duplicates = await sql('select email from users group by email having count(*) > 1');
    expect(duplicates).toEqual([]);
    const [sellers] = await sql<{ n: string }>(
      `select count(*) as n from users where email = '${DEMO_SELLER_EMAIL}'`,
    );
    expect(Number(sellers?.n)).toBe(1);
    const journal = JSON.parse(
      await readFile('src/server/db/migrations/meta/_journal.json', 'utf8'),
    ) as { entries: unknown[] };
    const [migrations] = await sql<{ n: string }>(
      'select count(*) as n from drizzle.__drizzle_migrations',
    );
    expect(Number(migrations?.n)).toBe(journal.entries.length);
  });

  it('a session made on one server gives a token on the other, which the first accepts', async () => {
    const { status, cookie } = await signIn(first(), DEMO_SELLER_EMAIL);
    expect(status).toBe(200);
    const token = await tokenFrom(second(), cookie, DEMO_SELLER_EMAIL);
    expect(token.status).toBe(200);
    const products = await fetch(`${first()}/api/products?email=${DEMO_SELLER_EMAIL}`, {
      headers: { authorization: `Bearer ${token.body.accessToken}` },
    });
    expect(products.status).toBe(200);
  });

  it('a photo uploaded through one server is read through the other, from object storage', async () => {
    const { cookie } = await signIn(second(), DEMO_SELLER_EMAIL);
    const { body } = await tokenFrom(second(), cookie, DEMO_SELLER_EMAIL);
    const data = await uploadPhoto(first(), body.accessToken as string);
    const sharp = (await import('sharp')).default;
    const read = await fetch(`${second()}${data.url}`);
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toBe('image/webp');
    const bytes = Buffer.from(await read.arrayBuffer());
    expect((await sharp(bytes).metadata()).format).toBe('webp');
    // From the bucket, not from either server's disk.
    const object = await fetch(`${store.endpoint}/${store.bucket}/${path.basename(data.url)}`);
    expect(object.status).toBe(200);
    expect(Buffer.from(await object.arrayBuffer())).toEqual(bytes);
  });

  it('phones listed through one server are counted at once by the other’s search counts', async () => {
    // Each server holds the search's counts (decision 034), read once it has started.
    const countsOf = async (base: string) => {
      const metrics = await (
        await fetch(`${base}/api/metrics`, {
          headers: { authorization: `Bearer ${METRICS_TOKEN}` },
        })
      ).text();
      return Number(/^phone_market_search_counted_total\{by="server"\} (\d+)$/m.exec(metrics)?.[1]);
    };
    for (const base of [first(), second()]) {
      for (let i = 0; i < 600; i++) {
        const health = (await (await fetch(`${base}/api/health`)).json()) as {
          searchCounts: string;
        };
        if (health.searchCounts === 'ready') break;
        await sleep(100);
      }
    }
    const { cookie } = await signIn(first(), DEMO_SELLER_EMAIL);
    const { body } = await tokenFrom(first(), cookie, DEMO_SELLER_EMAIL);
    const town = `Clustertown${uniqueWord()}`;
    const { url: image } = await uploadPhoto(first(), body.accessToken as string);
    const before = await countsOf(second());
    for (const modelName of ['Pixel 9', 'Pixel 9 Pro']) {
      const listed = await fetch(`${first()}/api/products`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${body.accessToken}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          categoryId: '03',
          modelName,
          image,
          originalPrice: 900,
          resellPrice: 600,
          location: town,
          description: 'Listed through the first server.',
          timeUsed: 2,
          condition: 'Good',
          sellerNumber: '+1 303 555 0100',
          specificatons: { ram: '8 GB', storage: '128 GB', color: 'Black', battery: 4700 },
          imei: uniqueImei(),
        }),
      });
      expect(listed.status).toBe(200);
    }
    // A page of one: the count is the second server's, not the page's length.
    const search = await fetch(`${second()}/api/search?location=${town}&limit=1`);
    expect(((await search.json()) as { count: number }).count).toBe(2);
    expect(await countsOf(second())).toBe(before + 1);
  });

  it('wrong passwords on both servers together are locked out after one server’s five', async () => {
    const email = 'buyer@example.com';
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const base = i % 2 === 0 ? first() : second();
      statuses.push((await signIn(base, email, 'Wrong-password-1!')).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('through the balancer, an X-Forwarded-For a client sends does not change who it is', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await fetch(`${cluster.url}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: origin(),
          'x-forwarded-for': `203.0.113.${i + 1}`,
        },
        body: JSON.stringify({ email: 'lena.kovac@example.com', password: 'Wrong-password-1!' }),
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('token requests on both servers together stop at one server’s thirty a minute', async () => {
    const email = 'omar.haddad@example.com';
    const { cookie } = await signIn(first(), email);
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) {
      statuses.push((await tokenFrom(i % 2 === 0 ? first() : second(), cookie, email)).status);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses.slice(30)).toEqual([429, 429]);
  });

  it('a server draining on SIGTERM leaves the rotation with no request failing', async () => {
    const failures: string[] = [];
    let answered = 0;
    let running = true;
    const load = (async () => {
      while (running) {
        const paths = ['/api/category', '/', '/api/advertise'];
        await Promise.all(
          paths.map(async (p) => {
            const response = await fetch(`${cluster.url}${p}`).catch((err: Error) => err);
            if (response instanceof Error) failures.push(`${p}: ${response.message}`);
            else {
              const body = await response.text();
              if (response.status !== 200) failures.push(`${p}: ${response.status}`);
              // The home page rendered by the server (what failed in flight), not the shell.
              else if (p === '/' && !body.includes(`id="${SSR_STATE_ID}"`))
                failures.push('/: the client shell, not a rendered page');
              answered++;
            }
          }),
        );
      }
    })();
    await sleep(500);
    const stopping = cluster.servers[1]?.stop();
    // Out of the rotation within the health checks' fall, while it still answers.
    await expect
      .poll(() => cluster.balancer.up(), { timeout: 10_000, interval: 200 })
      .toEqual(['s1']);
    expect(await stopping).toBe(0);
    running = false;
    await load;
    expect(failures).toEqual([]);
    expect(answered).toBeGreaterThan(20);
  }, 30_000);

  it('a server started with another secret refuses to start, naming it', async () => {
    const started = startServer({
      dataDir,
      databaseUrl,
      env: { ...cluster.env, JWT_SECRET: randomBytes(48).toString('base64url') },
    });
    await expect(started).rejects.toThrow(/JWT_SECRET differs from the one the other servers/);
  });
});
