/**
 * What every answer tells the browser (a strict CSP with no inline script, no framing, no
 * sniffing, a referrer policy), how identity cookies are set (HttpOnly, SameSite, Secure behind
 * HTTPS), and that a whole run's log, at its most verbose, holds no secret.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app';
import { loadConfig } from '../../../src/server/config';
import {
  type Account,
  cookieOf,
  createAccount,
  GOOD_PASSWORD,
  signIn,
  uniqueEmail,
} from '../../helpers/accounts';
import { buyingCalls } from '../../helpers/buying';
import { uploadPhoto } from '../../helpers/multipart';
import { buildTestApp, createTestDatabase, type TestApp } from '../../helpers/test-app';

describe('security headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it.each([
    ['a public read', '/api/category'],
    ['a refused call', '/api/order?email=a@b.example'],
    ['an unknown address', '/api/nothing-here'],
    ['the API reference', '/api/docs/'],
    ['an unknown photo', '/images/0000-640.webp'],
  ])('come with %s', async (_name, url) => {
    const res = await t.app.inject(url);
    const csp = Object.fromEntries(
      String(res.headers['content-security-policy'])
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    );
    expect(csp['default-src']).toEqual(["'self'"]);
    // Scripts only from our own origin: no inline script, no eval, nothing from elsewhere.
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['frame-src']).toEqual(["'none'"]);
    expect(csp['base-uri']).toEqual(["'self'"]);
    expect(csp['form-action']).toEqual(["'self'"]);
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});

describe('a malformed URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const SECURITY_HEADERS = [
    'content-security-policy',
    'x-frame-options',
    'x-content-type-options',
    'referrer-policy',
    'strict-transport-security',
    'cross-origin-opener-policy',
    'cross-origin-resource-policy',
  ];

  it.each([
    ['/%ZZ', '/%ZZ', 400],
    ['/api/%ZZ', '/api/%ZZ', 400],
    ['/%E0%A4%A', '/%E0%A4%A', 400],
    ['/api/auth/%ZZ', '/api/auth/%ZZ', 400],
    ['/images/%ZZ%3Cscript%3E', '/images/%ZZ%3Cscript%3E', 400],
    ['/api/category/%ZZ', '/api/category/%ZZ', 400],
  ])(
    '%s is a 400 with the headers of every answer, and does not echo the path',
    async (_name, url, status) => {
      const normal = await t.app.inject('/api/nothing-here');
      const res = await t.app.inject(url);
      expect(res.statusCode).toBe(status);
      for (const name of SECURITY_HEADERS) {
        expect(normal.headers[name], name).toBeDefined();
        expect(res.headers[name], name).toBe(normal.headers[name]);
      }
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const { message } = res.json();
      expect(message).toBe('Malformed URL');
      for (const part of [url, url.slice(1), 'ZZ', '%3C', '<script', 'xxxxx']) {
        expect(res.body).not.toContain(part);
      }
    },
  );

  it('is a 414, not a 500, when a path parameter is too long and no client catches it', async () => {
    // With the client built, its catch-all route answers such a path 404; without it the router
    // refuses it (over 100 characters) before any route, hook or error handler.
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'phone-market-data-'));
    const database = await createTestDatabase();
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir });
    const app = await buildApp({
      config: { ...config, CLIENT_DIR: path.join(dataDir, 'none') },
      database,
    });
    try {
      const url = `/api/category/${'x'.repeat(150)}%3Cscript%3E`;
      const res = await app.inject(url);
      expect(res.statusCode).toBe(414);
      const normal = await t.app.inject('/api/nothing-here');
      for (const name of SECURITY_HEADERS)
        expect(res.headers[name], name).toBe(normal.headers[name]);
      expect(res.json()).toEqual({ message: 'URL too long' });
      for (const part of ['xxxxx', '%3C', '<script']) expect(res.body).not.toContain(part);
    } finally {
      await app.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('identity cookies', () => {
  const signUp = (app: TestApp, headers: Record<string, string>) =>
    app.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers,
      payload: { email: uniqueEmail(), name: 'Cookie Person', password: GOOD_PASSWORD },
    });

  it('are HttpOnly and SameSite=Lax, and not Secure on plain HTTP so localhost works', async () => {
    const t = await buildTestApp();
    try {
      const res = await signUp(t, { origin: 'http://localhost' });
      expect(res.statusCode).toBe(200);
      expect(res.cookies.length).toBeGreaterThan(0);
      for (const cookie of res.cookies) {
        expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
        expect(cookie.secure).toBeFalsy();
      }
    } finally {
      await t.close();
    }
  });

  it('are Secure (and __Secure- named) behind an HTTPS proxy', async () => {
    const t = await buildTestApp({ PUBLIC_URL: 'https://shop.example' });
    try {
      const res = await signUp(t, {
        origin: 'https://shop.example',
        host: 'shop.example',
        'x-forwarded-proto': 'https',
      });
      expect(res.statusCode).toBe(200);
      expect(res.cookies.length).toBeGreaterThan(0);
      for (const cookie of res.cookies) {
        expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: true });
        expect(cookie.name).toMatch(/^__Secure-/);
      }
      // The session it names works for the identity calls behind the same proxy.
      const session = await t.app.inject({
        url: '/api/auth/get-session',
        headers: { cookie: cookieOf(res), host: 'shop.example', 'x-forwarded-proto': 'https' },
      });
      expect(session.json()?.user?.name).toBe('Cookie Person');
    } finally {
      await t.close();
    }
  });
});

describe('the log of a whole run', () => {
  const SECRETS = {
    BETTER_AUTH_SECRET: 'auth-secret-that-must-never-be-logged-0001',
    JWT_SECRET: 'jwt-secret-that-must-never-be-logged-000002',
  };
  const CARD = '4242424242424242';
  let log = '';
  let t: TestApp;
  let seller: Account;
  const { phone, bookedOrder, intentFor, confirmCard, recordCall } = buyingCalls(() => ({
    t,
    seller,
  }));

  beforeAll(async () => {
    t = await buildTestApp(
      { ...SECRETS, LOG_LEVEL: 'trace' },
      {
        logStream: {
          write: (line: string) => {
            log += line;
          },
        },
      },
    );
    seller = await createAccount(t.app, 'seller');
  });
  afterAll(() => t.close());

  it('holds no password, token, cookie, card number, payment secret or server secret', async () => {
    const buyer = await createAccount(t.app, 'user');
    const wrong = await signIn(t.app, buyer.email, 'Wrong-Password-77!');
    expect(wrong.statusCode).toBe(401);
    const photo = await sharp({
      create: { width: 40, height: 30, channels: 3, background: '#468' },
    })
      .jpeg()
      .toBuffer();
    const uploaded = await uploadPhoto(t.app, seller.bearer, photo);
    expect(uploaded.statusCode).toBe(200);
    const order = await bookedOrder(buyer, (await phone()).id);
    const { clientSecret } = (await intentFor(buyer, order.id)).json();
    const confirmed = await confirmCard(
      clientSecret,
      { number: CARD, expMonth: 12, expYear: 2034, cvc: '987' },
      buyer.email,
    );
    expect(confirmed.statusCode).toBe(200);
    const paid = await recordCall(buyer, confirmed.json().paymentIntent.id, order.id);
    expect(paid.statusCode).toBe(200);
    const refused = await t.app.inject({
      url: `/api/order?email=${seller.email}`,
      headers: buyer.bearer,
    });
    expect(refused.statusCode).toBe(403);

    // The log did record the run, requests and all.
    expect(log).toContain('"url":"/api/test-payments/confirm"');
    expect(log).toContain('"statusCode":403');
    const secrets = [
      GOOD_PASSWORD,
      'Wrong-Password-77!',
      buyer.token,
      seller.token,
      ...buyer.cookie.split('; ').map((c) => c.split('=')[1] ?? ''),
      CARD,
      clientSecret,
      SECRETS.BETTER_AUTH_SECRET,
      SECRETS.JWT_SECRET,
    ];
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(8);
      expect(
        log.includes(secret),
        log
          .split('\n')
          .filter((l) => l.includes(secret))
          .join('\n')
          .slice(0, 1500),
      ).toBe(false);
      expect(log.includes(decodeURIComponent(secret))).toBe(false);
    }
  });
});
