/**
 * The client's address (`request.ip`, which keys the limits per address such as the sign-in
 * lockout) is the connection's own unless the connection comes from a proxy named in
 * TRUSTED_PROXIES. Setting PUBLIC_URL trusts no proxy by itself: else anyone could name a new
 * address in X-Forwarded-For on each try and start the per-address limits afresh. Inject's
 * connection is from 127.0.0.1.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_PASSWORD, uniqueEmail } from '../../helpers/accounts';
import { buildTestApp, type TestApp } from '../../helpers/test-app';

const PUBLIC_URL = 'https://shop.example';

/** An app whose log is kept, to read the address the server saw for each request. */
async function appWithLog(env: Record<string, string>) {
  const lines: string[] = [];
  const t = await buildTestApp(
    { LOG_LEVEL: 'info', ...env },
    { logStream: { write: (line: string) => void lines.push(line) } },
  );
  let probes = 0;
  /** The address the server took for a request carrying these headers (Fastify logs `req.ip`). */
  const addressSeen = async (headers: Record<string, string>): Promise<string | undefined> => {
    const url = `/api/nothing-here?probe=${++probes}`;
    await t.app.inject({ url, headers });
    const entry = lines
      .map((line) => JSON.parse(line))
      .find((e) => e.msg === 'incoming request' && e.req?.url === url);
    return entry?.req?.remoteAddress;
  };
  return { t, addressSeen };
}

/** Signs up an account through the public address, as a browser behind the proxy does. */
async function signedUpEmail(t: TestApp): Promise<string> {
  const email = uniqueEmail('guessed');
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    headers: { origin: PUBLIC_URL },
    payload: { email, name: 'Guessed Person', password: GOOD_PASSWORD },
  });
  expect(res.statusCode).toBe(200);
  return email;
}

const wrongSignIn = (
  t: TestApp,
  email: string,
  forwardedFor: string,
): Promise<LightMyRequestResponse> =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { origin: PUBLIC_URL, 'x-forwarded-for': forwardedFor },
    payload: { email, password: 'Wrong-Pass1!' },
  });

describe('the client address with PUBLIC_URL set and no TRUSTED_PROXIES', () => {
  let t: TestApp;
  let addressSeen: (headers: Record<string, string>) => Promise<string | undefined>;
  beforeAll(async () => {
    ({ t, addressSeen } = await appWithLog({ PUBLIC_URL }));
  });
  afterAll(() => t.close());

  it('is the connection’s, whatever X-Forwarded-For says', async () => {
    expect(await addressSeen({})).toBe('127.0.0.1');
    expect(await addressSeen({ 'x-forwarded-for': '203.0.113.7' })).toBe('127.0.0.1');
    expect(await addressSeen({ 'x-forwarded-for': '198.51.100.1, 203.0.113.7' })).toBe('127.0.0.1');
  });

  it('locks out a guesser who names a new address in X-Forwarded-For on every try', async () => {
    const email = await signedUpEmail(t);
    for (let i = 1; i <= 5; i++) {
      expect((await wrongSignIn(t, email, `203.0.113.${i}`)).statusCode).toBe(401);
    }
    const sixth = await wrongSignIn(t, email, '203.0.113.6');
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().code).toBe('TOO_MANY_REQUESTS');
  });
});

describe('the client address with TRUSTED_PROXIES=127.0.0.1', () => {
  let t: TestApp;
  let addressSeen: (headers: Record<string, string>) => Promise<string | undefined>;
  beforeAll(async () => {
    ({ t, addressSeen } = await appWithLog({ PUBLIC_URL, TRUSTED_PROXIES: '127.0.0.1' }));
  });
  afterAll(() => t.close());

  it('is the one the trusted proxy forwarded, never one the client wrote before it', async () => {
    expect(await addressSeen({})).toBe('127.0.0.1');
    expect(await addressSeen({ 'x-forwarded-for': '203.0.113.7' })).toBe('203.0.113.7');
    // The proxy appends the address it saw; what the client sent itself comes earlier.
    expect(await addressSeen({ 'x-forwarded-for': '198.51.100.1, 203.0.113.7' })).toBe(
      '203.0.113.7',
    );
  });

  it('locks out the guessing address and not another client of the same proxy', async () => {
    const email = await signedUpEmail(t);
    for (let i = 1; i <= 5; i++) {
      expect((await wrongSignIn(t, email, '203.0.113.7')).statusCode).toBe(401);
    }
    expect((await wrongSignIn(t, email, '203.0.113.7')).statusCode).toBe(429);
    expect((await wrongSignIn(t, email, '203.0.113.8')).statusCode).toBe(401);
  });
});

describe('the client address with other TRUSTED_PROXIES', () => {
  it.each([
    // The connection is not from a listed proxy: its forwarded addresses are the client's word.
    ['10.0.0.0/8,::1', '198.51.100.1, 203.0.113.7', '127.0.0.1'],
    ['127.0.0.0/8', '198.51.100.1, 203.0.113.7', '203.0.113.7'],
    // A hop count trusts that many proxies in front, whatever their addresses.
    ['1', '198.51.100.1, 203.0.113.7', '203.0.113.7'],
    ['2', '198.51.100.1, 203.0.113.7', '198.51.100.1'],
  ])('%s with X-Forwarded-For %s gives %s', async (trusted, forwardedFor, expected) => {
    const { t, addressSeen } = await appWithLog({ PUBLIC_URL, TRUSTED_PROXIES: trusted });
    try {
      expect(await addressSeen({ 'x-forwarded-for': forwardedFor })).toBe(expected);
    } finally {
      await t.close();
    }
  });
});
