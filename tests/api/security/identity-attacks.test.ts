/**
 * The holes an outside attack found in sign-in, sign-up and accounts (security issue, items 2,
 * 3, 4, 6, 7 and 8), each as it was reproduced: every test failed on the code before its fix.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../../../src/server/db/schema';
import {
  cookieOf,
  createAccount,
  createAdmin,
  GOOD_PASSWORD,
  SAME_SITE,
  signIn,
  signUp,
  tokenFor,
  uniqueEmail,
} from '../../helpers/accounts';
import { createProduct, createSeller, orderValues } from '../../helpers/factories';
import { fingerprint } from '../../helpers/fingerprint';
import { buildTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, remoteAddress?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: SAME_SITE,
    payload: payload as object,
    remoteAddress,
  });

/** The spellings of a path that a router may resolve to the path itself. */
const SPELLINGS = (name: string) => [
  `/api/auth/%2e/${name}`,
  `/api/auth/%2E/${name}`,
  `/api/auth/x/../${name}`,
  `/api/auth/x/%2e%2e/${name}`,
  `/api/auth/./${name}`,
  `/api/auth//${name}`,
  `/api/auth/${name}/`,
  `/api/auth/${name.replace('s', '%73')}`,
];

describe('sign-in and sign-up, however the URL is spelled (item 2)', () => {
  let origin: string;
  beforeAll(async () => {
    // A real socket: an HTTP client library would resolve `..` and `%2e` before sending.
    origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  /** Posts JSON to exactly this path, as an attacker's raw client would. */
  const rawPost = (rawPath: string, payload: unknown) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const body = JSON.stringify(payload);
      const req = http.request(
        `${origin}/`,
        {
          method: 'POST',
          path: rawPath,
          headers: {
            'content-type': 'application/json',
            origin,
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => {
            text += c.toString();
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  it.each(SPELLINGS('sign-up/email'))(
    '%s creates no account with a weak password or a blank name',
    async (url) => {
      const before = await fingerprint(t.database.db);
      for (const payload of [
        { email: uniqueEmail('weak'), name: 'Weak', password: 'aaaaaa' },
        { email: uniqueEmail('blank'), name: '   ', password: GOOD_PASSWORD },
      ]) {
        const res = await rawPost(url, payload);
        expect(res.status, url).toBeGreaterThanOrEqual(400);
        expect(res.status, url).toBeLessThan(500);
      }
      expect(await fingerprint(t.database.db)).toEqual(before);
    },
  );

  it.each(SPELLINGS('sign-in/email'))(
    '%s gives no more than the lockout allows: 40 guesses, none signs in',
    async (url) => {
      const { email } = await signUp(t.app);
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) {
        statuses.push((await rawPost(url, { email, password: `Wrong-guess${i}!` })).status);
      }
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
      expect(statuses.every((s) => [401, 404, 429].includes(s))).toBe(true);
    },
  );

  it('keeps the rules inside the identity provider too, for a request that reaches it directly', async () => {
    const direct = (path: string, body: unknown) =>
      t.app.identity.handle(
        new Request(`http://localhost${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: 'http://localhost' },
          body: JSON.stringify(body),
        }),
      );
    const weak = await direct('/api/auth/x/../sign-up/email', {
      email: uniqueEmail('direct'),
      name: 'Direct',
      password: 'aaaaaa',
    });
    expect(weak.status).toBe(400);
    expect((await weak.json()).code).toBe('WEAK_PASSWORD');
    const blank = await direct('/api/auth/%2e/sign-up/email', {
      email: uniqueEmail('direct'),
      name: ' ',
      password: GOOD_PASSWORD,
    });
    expect((await blank.json()).code).toBe('NAME_REQUIRED');

    const { email } = await signUp(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      statuses.push(
        (await direct('/api/auth/%2e/sign-in/email', { email, password: 'Nope-123!' })).status,
      );
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429, 429]);
  });
});

describe('sign-in keeps nothing about an address it has not checked (item 3)', () => {
  it.each([
    ['half a megabyte', `${'a'.repeat(512 * 1024)}@test.example`],
    ['255 characters', `${'a'.repeat(242)}@test.example`],
    ['no @', 'not-an-address'],
  ])('refuses an e-mail of %s as invalid-email, before anything else', async (_, email) => {
    const res = await post('/api/auth/sign-in/email', { email, password: 'Whatever1!' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('INVALID_EMAIL');
  });

  it('locks out one normalised address, whatever its case and spaces', async () => {
    const { email } = await signUp(t.app);
    const spellings = [email, email.toUpperCase(), ` ${email} `, email, email];
    for (const spelled of spellings) {
      expect(
        (await post('/api/auth/sign-in/email', { email: spelled, password: 'Bad-pass1!' }))
          .statusCode,
      ).toBe(401);
    }
    expect((await signIn(t.app, email.toUpperCase(), GOOD_PASSWORD)).statusCode).toBe(429);
  });
});

describe('sign-up floods (item 4)', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await buildTestApp({ SIGN_UPS_PER_ADDRESS: '3', SIGN_UPS_IN_ALL: '5' });
  });
  afterAll(() => limited.close());

  const signUpFrom = (remoteAddress: string, name = 'Flood') =>
    limited.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: SAME_SITE,
      remoteAddress,
      payload: { email: uniqueEmail('flood'), name, password: GOOD_PASSWORD },
    });

  it('limits sign-ups per client address, then in all, with Retry-After', async () => {
    for (let i = 0; i < 3; i++) expect((await signUpFrom('203.0.113.7')).statusCode).toBe(200);
    const fourth = await signUpFrom('203.0.113.7');
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().code).toBe('TOO_MANY_REQUESTS');
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
    // One IPv6 household is one client.
    expect((await signUpFrom('2001:db8:1:2::10')).statusCode).toBe(200);
    expect((await signUpFrom('2001:db8:1:2:aaaa::11')).statusCode).toBe(200);
    // Five in all: a sixth address is refused too.
    expect((await signUpFrom('198.51.100.9')).statusCode).toBe(429);
  });

  it("turns on the identity provider's own limiter as a second layer", async () => {
    const second = await buildTestApp({ IDENTITY_RATE_LIMIT: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await second.app.inject({
          method: 'POST',
          url: '/api/auth/sign-in/email',
          headers: SAME_SITE,
          remoteAddress: '192.0.2.44',
          payload: { email: uniqueEmail('spray'), password: 'Spray-pass1!' },
        });
        statuses.push(res.statusCode);
      }
      // Each address is new to the lockout: only the provider's limiter stops the fourth.
      expect(statuses).toEqual([401, 401, 401, 429]);
    } finally {
      await second.close();
    }
  });

  it('caps the display name at 100 characters where it enters', async () => {
    const long = await post('/api/auth/sign-up/email', {
      email: uniqueEmail('long'),
      name: 'N'.repeat(101),
      password: GOOD_PASSWORD,
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().code).toBe('NAME_TOO_LONG');

    const account = await signUp(t.app);
    const renamed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/update-user',
      headers: { ...SAME_SITE, cookie: account.cookie },
      payload: { name: 'x'.repeat(2 * 1024 * 1024 - 100) },
    });
    expect([400, 413]).toContain(renamed.statusCode);
    await tokenFor(t.app, account.cookie, account.email);
    const record = await t.app.inject(`/api/users/seller/${account.email}`);
    expect(record.statusCode).toBe(200);
  });
});

describe('a deleted account does not come back (item 6)', () => {
  it("keeps a deleted buyer's paid orders from whoever signs up with the address", async () => {
    const admin = await createAdmin(t.app);
    const buyer = await createAccount(t.app, 'user');
    const seller = await createSeller(t.database.db);
    const phone = await createProduct(t.database.db, seller, { status: 'sold' });
    const [paid] = await t.database.db
      .insert(orders)
      .values(
        orderValues(buyer, phone.id, {
          status: 'paid',
          stage: 'completed',
          number: '+1 512 555 0199',
        }),
      )
      .returning();
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/users?id=${buyer.id}`,
      headers: admin.bearer,
    });
    expect(removed.statusCode).toBe(200);

    // The address is banned: signing up again is refused, with the provider's code.
    const again = await post('/api/auth/sign-up/email', {
      email: buyer.email,
      name: 'Someone Else',
      password: GOOD_PASSWORD,
    });
    expect(again.statusCode).toBe(403);
    expect(again.json().code).toBe('ACCOUNT_BANNED');

    // Once the admin lifts the ban, the address starts a new account with no history.
    const lifted = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/banned?email=${buyer.email}`,
      headers: admin.bearer,
    });
    expect(lifted.statusCode).toBe(200);
    const newcomer = await createAccount(t.app, 'user', buyer.email);
    const mine = await t.app.inject({
      url: `/api/order?email=${buyer.email}`,
      headers: newcomer.bearer,
    });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual([]);
    const old = await t.app.inject({ url: `/api/payment/${paid?.id}`, headers: newcomer.bearer });
    expect(old.statusCode).toBe(403);
  });

  it('keeps a deleted seller from signing up again and listing at once', async () => {
    const admin = await createAdmin(t.app);
    const seller = await createAccount(t.app, 'seller');
    await t.app.inject({
      method: 'DELETE',
      url: `/api/users?id=${seller.id}`,
      headers: admin.bearer,
    });
    const again = await post('/api/auth/sign-up/email', {
      email: seller.email,
      name: seller.name,
      password: GOOD_PASSWORD,
    });
    expect(again.statusCode).toBe(403);
  });

  it('lets the admin ban an address with or without an account, and list the bans', async () => {
    const admin = await createAdmin(t.app);
    const buyer = await createAccount(t.app, 'user');
    const stranger = uniqueEmail('stranger');
    for (const email of [buyer.email, stranger]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/users/banned',
        headers: admin.bearer,
        payload: { email },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().deletedCount).toBe(email === buyer.email ? 1 : 0);
    }
    expect(
      (await t.app.inject({ url: `/api/wishlist?email=${buyer.email}`, headers: buyer.bearer }))
        .statusCode,
    ).toBe(401);
    expect(
      (
        await post('/api/auth/sign-up/email', {
          email: stranger,
          name: 'S',
          password: GOOD_PASSWORD,
        })
      ).statusCode,
    ).toBe(403);
    const list = await t.app.inject({ url: '/api/users/banned', headers: admin.bearer });
    expect(list.json().map((b: { email: string }) => b.email)).toEqual(
      expect.arrayContaining([buyer.email, stranger]),
    );
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/users/banned',
      headers: admin.bearer,
      payload: { email: admin.email },
    });
    expect(refused.statusCode).toBe(403);
  });
});

describe('redirects go only to our own site (item 7)', () => {
  it.each([
    '/api/auth/reset-password/x?callbackURL=https://evil.example',
    '/api/auth/reset-password/x?callbackURL=http://evil.example/phish',
    '/api/auth/reset-password/x?callbackURL=//evil.example',
    '/api/auth/verify-email?token=x&callbackURL=https://evil.example',
    '/api/auth/verify-email?token=x&callbackURL=http://evil.example',
  ])('%s does not send the browser to another site', async (url) => {
    const res = await t.app.inject({ url });
    const location = res.headers.location;
    if (typeof location === 'string') {
      expect(new URL(location, 'http://localhost').origin).toBe('http://localhost');
    }
    expect(res.statusCode).toBeLessThan(500);
  });

  it('still redirects to our own pages', async () => {
    const res = await t.app.inject({ url: '/api/auth/reset-password/x?callbackURL=/signin' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toMatch(/^\/signin|^http:\/\/localhost\/signin/);
  });
});

describe('access tokens end with their session (item 8)', () => {
  it('stops working at sign-out, not 15 minutes later, while another device stays signed in', async () => {
    const buyer = await createAccount(t.app, 'user');
    const otherDevice = cookieOf(await signIn(t.app, buyer.email, buyer.password));
    const otherToken = await tokenFor(t.app, otherDevice, buyer.email);
    const mine = () =>
      t.app.inject({ url: `/api/order?email=${buyer.email}`, headers: buyer.bearer });
    expect((await mine()).statusCode).toBe(200);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { ...SAME_SITE, cookie: buyer.cookie },
    });
    expect(out.statusCode).toBe(200);
    expect((await mine()).statusCode).toBe(401);
    const theirs = await t.app.inject({
      url: `/api/order?email=${buyer.email}`,
      headers: { authorization: `bearer ${otherToken}` },
    });
    expect(theirs.statusCode).toBe(200);
  });

  it('is not revived by an account signed up again with the address', async () => {
    const admin = await createAdmin(t.app);
    const buyer = await createAccount(t.app, 'user');
    await t.app.inject({
      method: 'DELETE',
      url: `/api/users?id=${buyer.id}`,
      headers: admin.bearer,
    });
    await t.app.inject({
      method: 'DELETE',
      url: `/api/users/banned?email=${buyer.email}`,
      headers: admin.bearer,
    });
    await createAccount(t.app, 'user', buyer.email);
    const res = await t.app.inject({
      url: `/api/order?email=${buyer.email}`,
      headers: buyer.bearer,
    });
    expect(res.statusCode).toBe(401);
  });

  it('keeps working in another signed-in session of the same account', async () => {
    const buyer = await createAccount(t.app, 'user');
    const second = cookieOf(await signIn(t.app, buyer.email, buyer.password));
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { ...SAME_SITE, cookie: second },
    });
    const res = await t.app.inject({
      url: `/api/order?email=${buyer.email}`,
      headers: buyer.bearer,
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('what sign-up tells of an address is counted (issue 29, finding 7)', () => {
  let counted: TestApp;
  beforeAll(async () => {
    counted = await buildTestApp({ SIGN_UPS_PER_ADDRESS: '2' });
  });
  afterAll(() => counted.close());

  const signUpFrom = (remoteAddress: string, email: string) =>
    counted.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: SAME_SITE,
      remoteAddress,
      payload: { email, name: 'Prober', password: GOOD_PASSWORD },
    });

  it("counts a sign-up with a taken address against the client's sign-ups", async () => {
    const { email } = await signUp(counted.app);
    const statuses: [number, string][] = [];
    for (let i = 0; i < 3; i++) {
      const res = await signUpFrom('203.0.113.61', email);
      statuses.push([res.statusCode, res.json().code]);
    }
    expect(statuses).toEqual([
      [422, 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL'],
      [422, 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL'],
      [429, 'TOO_MANY_REQUESTS'],
    ]);
  });

  it("counts a sign-up with a banned address against the client's sign-ups", async () => {
    const admin = await createAdmin(counted.app);
    const banned = uniqueEmail('banned');
    const ban = await counted.app.inject({
      method: 'POST',
      url: '/api/users/banned',
      headers: admin.bearer,
      payload: { email: banned },
    });
    expect(ban.statusCode).toBe(200);
    const statuses: [number, string][] = [];
    for (let i = 0; i < 3; i++) {
      const res = await signUpFrom('203.0.113.62', banned);
      statuses.push([res.statusCode, res.json().code]);
    }
    expect(statuses).toEqual([
      [403, 'ACCOUNT_BANNED'],
      [403, 'ACCOUNT_BANNED'],
      [429, 'TOO_MANY_REQUESTS'],
    ]);
  });
});

describe('a malformed Host header (issue 29, finding 8)', () => {
  const logLines: string[] = [];
  let hosted: TestApp;
  let port: number;
  beforeAll(async () => {
    hosted = await buildTestApp(
      { LOG_LEVEL: 'warn' },
      { logStream: { write: (line: string) => void logLines.push(line) } },
    );
    await hosted.app.listen({ port: 0, host: '127.0.0.1' });
    port = (hosted.app.server.address() as AddressInfo).port;
  });
  afterAll(() => hosted.close());

  /**
   * One request written byte for byte on a socket: an HTTP client library (and `inject`) would
   * refuse or tidy such a Host before sending it.
   */
  const rawRequest = (method: string, path: string, host: string | null, body?: object) =>
    new Promise<{ status: number; headers: Record<string, string>; body: string }>(
      (resolve, reject) => {
        const text = body === undefined ? '' : JSON.stringify(body);
        const head = [
          // With no Host at all, HTTP/1.0 (as a balancer's health check sends it).
          ...(host === null
            ? [`${method} ${path} HTTP/1.0`]
            : [`${method} ${path} HTTP/1.1`, `Host: ${host}`]),
          `Origin: http://127.0.0.1:${port}`,
          'Connection: close',
          ...(body === undefined
            ? []
            : ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(text)}`]),
        ];
        const socket = net.connect(port, '127.0.0.1', () => {
          // Written, not ended: a half-closed socket may be closed before its answer is sent.
          // `Connection: close` has the server close it once it has answered.
          socket.write(`${head.join('\r\n')}\r\n\r\n${text}`);
        });
        let received = '';
        socket.on('data', (chunk: Buffer) => {
          received += chunk.toString('latin1');
        });
        socket.on('error', reject);
        socket.on('close', () => {
          const [headText = '', answer = ''] = received.split('\r\n\r\n');
          const [statusLine = '', ...lines] = headText.split('\r\n');
          const headers = Object.fromEntries(
            lines.map((line) => {
              const at = line.indexOf(':');
              return [line.slice(0, at).toLowerCase(), line.slice(at + 1).trim()];
            }),
          );
          resolve({ status: Number(statusLine.split(' ')[1]), headers, body: answer });
        });
      },
    );

  const CALLS: [string, string, object?][] = [
    ['POST', '/api/auth/sign-in/email', { email: 'someone@test.example', password: 'Whatever-1!' }],
    [
      'POST',
      '/api/auth/sign-up/email',
      { email: 'host-test@test.example', name: 'Host', password: GOOD_PASSWORD },
    ],
    ['GET', '/api/auth/get-session'],
    ['GET', '/api/category'],
    ['GET', '/'],
  ];
  const HOSTS = ['127.0.0.1 evil', 'a@b', '[', 'a/b', 'localhost:99999', '[::1', 'a?b', 'a#b'];

  it.each(HOSTS)('answers Host %j with 400 and the usual headers, on every call', async (host) => {
    const before = logLines.length;
    for (const [method, path, body] of CALLS) {
      const res = await rawRequest(method, path, host, body);
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(JSON.parse(res.body), `${method} ${path}`).toEqual({ message: expect.any(String) });
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['x-frame-options']).toBeDefined();
    }
    const errors = logLines
      .slice(before)
      .filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
    expect(errors).toEqual([]);
  });

  it('answers a malformed X-Forwarded-Host from a trusted proxy alike', async () => {
    const proxied = await buildTestApp({ TRUSTED_PROXIES: '127.0.0.1' });
    try {
      for (const url of ['/api/auth/get-session', '/api/category']) {
        const res = await proxied.app.inject({ url, headers: { 'x-forwarded-host': 'a@b' } });
        expect(res.statusCode, url).toBe(400);
        expect(res.json()).toEqual({ message: 'Malformed Host header' });
        const fine = await proxied.app.inject({
          url,
          headers: { 'x-forwarded-host': 'shop.example' },
        });
        expect(fine.statusCode, url).toBe(200);
      }
    } finally {
      await proxied.close();
    }
  });

  it('still answers a well-formed Host, a port and an IPv6 literal included, or none', async () => {
    for (const host of [`127.0.0.1:${port}`, 'localhost', `[::1]:${port}`, null]) {
      const res = await rawRequest('GET', '/api/category', host);
      expect(res.status, String(host)).toBe(200);
    }
  });
});
