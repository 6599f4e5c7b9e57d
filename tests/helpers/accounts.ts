/** Accounts made the way the client makes them: sign up, save the user record, get a token. */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { setAdmin } from '../../src/server/repositories/users';

export const GOOD_PASSWORD = 'Phone-Market1!';
/** Browsers send Origin with every POST; inject's default host is localhost. */
export const SAME_SITE = { origin: 'http://localhost' } as const;

export const cookieOf = (res: LightMyRequestResponse): string =>
  res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');

export const uniqueEmail = (label = 'user') => `${label}-${randomUUID().slice(0, 8)}@test.example`;

export async function signUp(
  app: FastifyInstance,
  { email = uniqueEmail(), name = 'Test Person', password = GOOD_PASSWORD } = {},
) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    headers: SAME_SITE,
    payload: { email, name, password },
  });
  if (res.statusCode !== 200) throw new Error(`sign-up failed: ${res.statusCode} ${res.body}`);
  return { email, name, password, cookie: cookieOf(res) };
}

/** Posts a sign-in as the browser does (same-site Origin); the answer is the caller's to check. */
export const signIn = (app: FastifyInstance, email: string, password: string) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: SAME_SITE,
    payload: { email, password },
  });

export async function tokenFor(
  app: FastifyInstance,
  cookie: string,
  email: string,
): Promise<string> {
  const res = await app.inject({
    url: `/api/jwt?email=${encodeURIComponent(email)}`,
    headers: { cookie },
  });
  if (res.statusCode !== 200) throw new Error(`token failed: ${res.statusCode} ${res.body}`);
  return res.json().accessToken;
}

/** A signed-up account of the given type with its identity cookie and access token. */
export async function createAccount(
  app: FastifyInstance,
  type: 'user' | 'seller',
  email = uniqueEmail(type),
) {
  const account = await signUp(app, { email, name: `${type} ${email.slice(0, 6)}` });
  const saved = await app.inject({
    method: 'POST',
    url: '/api/users',
    headers: { cookie: account.cookie },
    payload: { email, name: account.name, type },
  });
  if (saved.statusCode !== 200) throw new Error(`save failed: ${saved.body}`);
  const token = await tokenFor(app, account.cookie, email);
  // The account's id (users row), as the token names it.
  const id = String(decodeJwt(token).sub);
  return { ...account, id, token, bearer: { authorization: `bearer ${token}` } };
}

/** A signed-up account with its identity cookie and access token, as `createAccount` makes it. */
export type Account = Awaited<ReturnType<typeof createAccount>>;

/** An account made admin the operator's way (`npm run admin -- grant`): signing up never does. */
export async function createAdmin(app: FastifyInstance, email = uniqueEmail('admin')) {
  const account = await createAccount(app, 'user', email);
  if ((await setAdmin(app.db, email, true)) !== 'changed') throw new Error('admin not granted');
  return account;
}

/** The same account and session as `token`, in a token whose lifetime ended an hour ago. */
export function expiredTokenLike(app: FastifyInstance, token: string): Promise<string> {
  const { sub, sid } = decodeJwt(token);
  return app.accessTokens.issue(
    { userId: String(sub), sessionId: String(sid) },
    Date.now() - 60 * 60 * 1000,
  );
}
