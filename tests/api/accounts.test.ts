import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema';
import { userSchema } from '../../src/shared/entities';
import {
  cookieOf,
  createAccount,
  createAdmin,
  expiredTokenLike,
  GOOD_PASSWORD,
  SAME_SITE,
  signUp,
  tokenFor,
  uniqueEmail,
} from '../helpers/accounts';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const ADMIN = 'boss@test.example';
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const signIn = (email: string, password: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    payload: { email, password },
    headers: { ...SAME_SITE, ...headers },
  });

describe('sign-up and sign-in with the identity provider', () => {
  it('signs up with a display name and sets an HttpOnly, SameSite session cookie', async () => {
    const email = uniqueEmail();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: SAME_SITE,
      payload: { email, name: 'Dana Buyer', password: GOOD_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ email, name: 'Dana Buyer' });
    const session = res.cookies.find((c) => c.name.includes('session_token'));
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  });

  it.each([
    ['Ab1!', 'password atleast 6 characters'],
    ['abcdefg1!', 'password must have uppercase, number and special character'],
    ['ABCDEFG1!', 'password must have uppercase, number and special character'],
    ['Abcdefgh!', 'password must have uppercase, number and special character'],
    ['Abcdefgh1', 'password must have uppercase, number and special character'],
  ])('refuses the password %s on the server too, and creates nobody', async (password, message) => {
    const email = uniqueEmail();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: SAME_SITE,
      payload: { email, name: 'Weak', password },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'WEAK_PASSWORD', message });
    expect((await signIn(email, password)).json().code).toBe('INVALID_EMAIL_OR_PASSWORD');
  });

  it('refuses a second account for a taken e-mail', async () => {
    const { email } = await signUp(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: SAME_SITE,
      payload: { email, name: 'Again', password: GOOD_PASSWORD },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toMatch(/^USER_ALREADY_EXISTS/);
  });

  it('answers a wrong password, an unknown e-mail and a deleted account alike', async () => {
    const { email } = await signUp(t.app);
    const admin = await createAdmin(t.app);
    const deleted = await createAccount(t.app, 'user');
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/users?id=${deleted.id}`,
      headers: admin.bearer,
    });
    expect(removed.statusCode).toBe(200);
    /** All an answer tells: its status, its headers (but the date) and its body. */
    const told = async (address: string, password: string) => {
      const res = await signIn(address, password);
      const { date: _, ...headers } = res.headers;
      return { status: res.statusCode, headers, body: res.json() };
    };
    const wrongPassword = await told(email, 'Wrong-Pass1!');
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body).toEqual({
      code: 'INVALID_EMAIL_OR_PASSWORD',
      message: 'Invalid email or password',
    });
    expect(await told(uniqueEmail('nobody'), 'Wrong-Pass1!')).toEqual(wrongPassword);
    expect(await told(deleted.email, deleted.password)).toEqual(wrongPassword);
    expect((await signIn(email, GOOD_PASSWORD)).statusCode).toBe(200);
  });

  it('signs in whatever the case of the e-mail, as it was typed at sign-up or not', async () => {
    const email = `Mixed.Case-${Date.now()}@Test.Example`;
    await signUp(t.app, { email });
    expect((await signIn(email, GOOD_PASSWORD)).statusCode).toBe(200);
    expect((await signIn(email.toLowerCase(), GOOD_PASSWORD)).statusCode).toBe(200);
  });

  it('answers 429 after five failed sign-ins for an e-mail, even with the right password', async () => {
    const { email } = await signUp(t.app);
    for (let i = 0; i < 5; i++)
      expect((await signIn(email, `Wrong-Pass${i}!`)).statusCode).toBe(401);
    const blocked = await signIn(email, GOOD_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('TOO_MANY_REQUESTS');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('refuses identity calls posted from another site, or with no origin at all', async () => {
    const { email } = await signUp(t.app);
    const res = await signIn(email, GOOD_PASSWORD, {
      origin: 'https://evil.example',
      cookie: 'x=1',
    });
    expect(res.statusCode).toBe(403);
    const bare = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email, password: GOOD_PASSWORD },
    });
    expect(bare.statusCode).toBe(403);
    const same = await signIn(email, GOOD_PASSWORD, { cookie: 'x=1' });
    expect(same.statusCode).toBe(200);
  });
});

describe('GET /api/jwt', () => {
  it('issues an access token to the signed-in identity of that e-mail', async () => {
    const { email, cookie } = await signUp(t.app);
    const token = await tokenFor(t.app, cookie, email);
    expect(token.split('.')).toHaveLength(3);
  });

  it('gives no token without a signed-in identity', async () => {
    const res = await t.app.inject(`/api/jwt?email=${uniqueEmail()}`);
    expect(res.statusCode).toBe(401);
    expect(res.json().accessToken).toBeUndefined();
  });

  it('gives no token for an e-mail whose identity the caller has not proven', async () => {
    const victim = await signUp(t.app);
    const attacker = await signUp(t.app);
    const res = await t.app.inject({
      url: `/api/jwt?email=${victim.email}`,
      headers: { cookie: attacker.cookie },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().accessToken).toBeUndefined();
  });

  it('refuses a malformed e-mail with a 400 naming it', async () => {
    const res = await t.app.inject('/api/jwt?email=not-an-email');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/email/);
  });

  it('makes a buyer record for an identity whose record was never saved', async () => {
    const { email, cookie } = await signUp(t.app);
    await tokenFor(t.app, cookie, email);
    const [row] = await t.database.db.select().from(users).where(eq(users.email, email));
    expect(row?.type).toBe('user');
  });
});

describe('POST /api/users', () => {
  it('saves the record of the signed-in identity', async () => {
    const { email, cookie } = await signUp(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { cookie },
      payload: { email, name: 'Sam Seller', type: 'seller' },
    });
    expect(res.json()).toEqual({ acknowledged: true });
    expect((await t.app.inject(`/api/users/seller/${email}`)).json()).toEqual({ isSeller: true });
  });

  it('does not turn an existing seller into a buyer', async () => {
    const seller = await createAccount(t.app, 'seller');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { cookie: seller.cookie },
      payload: { email: seller.email, name: seller.name, type: 'user' },
    });
    expect(res.json()).toEqual({ acknowledged: true });
    expect((await t.app.inject(`/api/users/seller/${seller.email}`)).json()).toEqual({
      isSeller: true,
    });
  });

  it("refuses to save a record for someone else's e-mail, or without signing in", async () => {
    const a = await signUp(t.app);
    const other = uniqueEmail();
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { cookie: a.cookie },
      payload: { email: other, name: 'X', type: 'seller' },
    });
    expect(forged.statusCode).toBe(403);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      payload: { email: other, name: 'X', type: 'user' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await t.app.inject(`/api/users/seller/${other}`)).json()).toEqual({ isSeller: false });
  });

  it.each([
    [{ name: 'X', type: 'user' }, 'email'],
    [{ email: 'a@test.example', type: 'admin' }, 'name'],
    [{ email: 'a@test.example', name: 'X', type: 'admin' }, 'type'],
  ])('refuses %j with a 400 naming %s', async (payload, field) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/users', payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
  });
});

describe('role checks', () => {
  it('finds admins granted by the operator, case aside', async () => {
    await createAdmin(t.app, ADMIN);
    expect((await t.app.inject(`/api/users/admin/${ADMIN}`)).json()).toEqual({ isAdmin: true });
    expect((await t.app.inject('/api/users/admin/Boss@Test.Example')).json()).toEqual({
      isAdmin: true,
    });
    expect((await t.app.inject(`/api/users/admin/${uniqueEmail()}`)).json()).toEqual({
      isAdmin: false,
    });
  });
});

describe('bearer tokens', () => {
  const listBuyers = (headers: Record<string, string> = {}) =>
    t.app.inject({ url: '/api/users/buyer', headers });

  it('lets an admin list buyers, newest first, without admins among them', async () => {
    const admin = await createAdmin(t.app, `lister-${ADMIN}`);
    const buyer = await createAccount(t.app, 'user');
    const res = await listBuyers(admin.bearer);
    expect(res.statusCode).toBe(200);
    const list = res.json().map((u: unknown) => userSchema.parse(u));
    expect(list[0].email).toBe(buyer.email);
    expect(list.map((u: { email: string }) => u.email)).not.toContain(admin.email);
    const sellers = await t.app.inject({ url: '/api/users/seller', headers: admin.bearer });
    expect(sellers.json().every((u: { type: string }) => u.type === 'seller')).toBe(true);
  });

  it('answers 403 to a buyer or seller on an admin call', async () => {
    for (const type of ['user', 'seller'] as const) {
      const account = await createAccount(t.app, type);
      const res = await listBuyers(account.bearer);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toMatch(/admin/);
    }
  });

  it('answers 401 to a missing, malformed, forged or expired token', async () => {
    const buyer = await createAccount(t.app, 'user');
    const forged = await new SignJWT({ email: buyer.email })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('phone-market')
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('a-secret-that-is-not-ours-at-all-1234567890'));
    const expired = await expiredTokenLike(t.app, buyer.token);
    const unsigned = `${buyer.token.split('.').slice(0, 2).join('.')}.`;
    for (const authorization of [
      undefined,
      'bearer',
      `basic ${buyer.token}`,
      `bearer ${forged}`,
      `bearer ${expired}`,
      `bearer ${unsigned}`,
    ]) {
      const res = await listBuyers(authorization ? { authorization } : {});
      expect(res.statusCode, authorization).toBe(401);
      expect(res.json().message).toEqual(expect.any(String));
    }
    expect((await listBuyers({ authorization: `bearer ${expired}` })).json().message).toBe(
      'Access token expired',
    );
  });

  it('answers 401 to the token of an account that no longer exists', async () => {
    const admin = await createAdmin(t.app, `other-${ADMIN}`);
    await t.database.db.delete(users).where(eq(users.email, admin.email));
    expect((await listBuyers(admin.bearer)).statusCode).toBe(401);
  });

  it('signs out: the identity session ends, so no new token can be had', async () => {
    const { email, password } = await signUp(t.app);
    const signedIn = await signIn(email, password);
    const cookie = cookieOf(signedIn);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { ...SAME_SITE, cookie },
      payload: {},
    });
    expect(out.statusCode).toBe(200);
    const res = await t.app.inject({ url: `/api/jwt?email=${email}`, headers: { cookie } });
    expect(res.statusCode).toBe(401);
  });
});

describe('a forgotten password tells nothing of the address (issue 29, finding 7)', () => {
  const requestReset = (email: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      headers: SAME_SITE,
      payload: { email, redirectTo: '/reset-password' },
    });

  /** The mails kept for `to` (the embedded mail store writes each as a file under DATA_DIR). */
  const mailsTo = async (to: string) => {
    const dir = path.join(t.dataDir, 'mail');
    const names = await readdir(dir).catch(() => [] as string[]);
    const texts = await Promise.all(
      names.filter((n) => n.endsWith('.eml')).map((n) => readFile(path.join(dir, n), 'utf8')),
    );
    return texts.filter((text) => text.includes(`To: ${to}`));
  };

  it('answers an address with an account and one without alike, before the look-up is done', async () => {
    const known = (await signUp(t.app)).email;
    const unknown = uniqueEmail('nobody');
    // The provider's work waits at a gate: an answer that waited for it would never come.
    const provider = t.app.identity;
    const handle = provider.handle;
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const reached: string[] = [];
    provider.handle = async (request) => {
      if (new URL(request.url).pathname.endsWith('/request-password-reset')) {
        reached.push(request.url);
        await gate;
      }
      return handle(request);
    };
    try {
      const told = async (email: string) => {
        const res = await requestReset(email);
        const { date: _, ...headers } = res.headers;
        return { status: res.statusCode, headers, body: res.json() };
      };
      const forKnown = await told(known);
      expect(forKnown.status).toBe(200);
      expect(forKnown.body).toEqual({
        status: true,
        message: 'If this email exists in our system, check your email for the reset link',
      });
      expect(await told(unknown)).toEqual(forKnown);
    } finally {
      open();
      provider.handle = handle;
    }
    // The work is done after the answers, and its mail is written and sent.
    await t.app.afterAnswer.idle();
    expect(reached).toHaveLength(2);
    await t.app.outbox.idle();
    const mails = await mailsTo(known);
    expect(mails.filter((m) => m.includes('Reset your Phone Market password'))).toHaveLength(1);
    expect(await mailsTo(unknown)).toEqual([]);
  }, 10_000);

  it('still refuses a malformed address at once, naming the same code as before', async () => {
    const res = await requestReset('not an address');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('INVALID_EMAIL');
  });
});
