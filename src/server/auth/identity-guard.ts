/**
 * Our rules around the identity provider, run by the provider itself on the endpoint it resolved
 * (Better Auth's hooks), so no spelling of a URL reaches sign-in or sign-up without them:
 * - sign-up: the e-mail's format and length, a name of 1 to 100 characters, the password rules of
 *   spec section 5, banned addresses, and sign-ups limited per client address and in all;
 * - sign-in: the e-mail checked before anything is kept about it, and tries locked out per client
 *   address and normalised e-mail (each try counted before the password is checked, a success
 *   clearing them); an unknown address is answered as a wrong password is (decision 036);
 * - every identity created by any method (e-mail, Google): not for a banned address, name capped;
 * - password hashing: a few at a time, so a flood of sign-ups cannot take every thread of the
 *   pool that also reads files (photos, the app's scripts).
 * The client's address comes from our server (`CLIENT_ADDRESS_HEADER`, set after the trusted
 * proxies are applied), never from a header a client sends. The limits count in the store every
 * server shares (limits/limit-store.ts), so N servers lock out as one does.
 */
import { createHash } from 'node:crypto';
import { isIPv6 } from 'node:net';
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import { hashPassword, verifyPassword } from 'better-auth/crypto';
import pLimit from 'p-limit';
import { emailSchema } from '../../shared/api';
import { NAME_MAX_LENGTH } from '../../shared/constants';
import { passwordProblem } from '../../shared/identity';
import type { Db } from '../db/client';
import { type LimitStore, LimitsUnavailableError } from '../limits/limit-store';
import { isBanned } from '../repositories/bans';
import { WindowThrottle } from './window-throttle';

/** Set by our server on every request it forwards to the provider, after removing any sent. */
export const CLIENT_ADDRESS_HEADER = 'x-phone-market-client-address';

export type IdentityLimits = {
  /** Sign-ups one client address may make per window. */
  signUpsPerAddress: number;
  /** Sign-ups all clients together may make per window. */
  signUpsInAll: number;
  windowMs?: number;
};

const SIGN_UP_WINDOW_MS = 10 * 60 * 1000;
/** Sign-in tries one client address may make for one e-mail per window. */
const SIGN_IN_TRIES = 5;
const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
/** Password hashes computed at once: half of libuv's default pool of four threads. */
const HASHING_AT_ONCE = 2;
/** Sign-up hashes made ahead of their transaction and not yet used, at most. */
const PREHASHED_MAX = 256;

/** Hashes waiting beyond this answer "busy" at once instead of queueing without end. */
const HASHING_QUEUE_MAX = 64;

/** An IPv6 client is one /64 (one household or phone); an IPv4 client is one address. */
export function clientKey(address: string): string {
  if (!isIPv6(address) || address.startsWith('::ffff:')) return address.replace(/^::ffff:/, '');
  const full = address.includes('::')
    ? (() => {
        const [head = '', tail = ''] = address.split('::');
        const h = head ? head.split(':') : [];
        const t = tail ? tail.split(':') : [];
        return [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
      })()
    : address.split(':');
  return `${full.slice(0, 4).join(':')}::/64`;
}

const fail = (
  status: 'BAD_REQUEST' | 'UNAUTHORIZED' | 'FORBIDDEN',
  code: string,
  message: string,
) => new APIError(status, { code, message });

const tooMany = (retryAfterSeconds: number, message: string) =>
  new APIError(
    'TOO_MANY_REQUESTS',
    { code: 'TOO_MANY_REQUESTS', message },
    {
      'retry-after': String(retryAfterSeconds),
    },
  );

/** The code of a sign-in refused because the lockout cannot count (its store is down). */
export const LOCKOUT_UNAVAILABLE = 'LOCKOUT_UNAVAILABLE';

/** The lockout cannot count: sign-in waits rather than let guesses through uncounted. */
const unavailable = (err: unknown): never => {
  if (!(err instanceof LimitsUnavailableError)) throw err;
  throw new APIError(
    'SERVICE_UNAVAILABLE',
    {
      code: LOCKOUT_UNAVAILABLE,
      message: 'Sign-in is unavailable for a moment. Try again shortly.',
    },
    { 'retry-after': '5' },
  );
};

type Body = Record<string, unknown> | undefined;

const checkedEmail = (body: Body): string => {
  const parsed = emailSchema.safeParse(body?.email);
  if (!parsed.success) throw fail('BAD_REQUEST', 'INVALID_EMAIL', 'Invalid email address');
  return parsed.data;
};

const checkedName = (name: unknown): string => {
  const trimmed = typeof name === 'string' ? name.trim() : '';
  if (!trimmed) throw fail('BAD_REQUEST', 'NAME_REQUIRED', 'Name is required');
  if (trimmed.length > NAME_MAX_LENGTH)
    throw fail('BAD_REQUEST', 'NAME_TOO_LONG', `Name is too long (at most ${NAME_MAX_LENGTH})`);
  return trimmed;
};

export function createIdentityGuard(db: Db, store: LimitStore, limits: IdentityLimits) {
  // A limit against guessing passwords: refuses while the store cannot count.
  const signInTries = new WindowThrottle(store, 'sign-in tries', {
    limit: SIGN_IN_TRIES,
    windowMs: SIGN_IN_WINDOW_MS,
    whenUncounted: 'refuse',
  });
  // Limits against floods of accounts: sign-ups go on uncounted while the store is down (each
  // still costs a password hash, a few at a time).
  const windowMs = limits.windowMs ?? SIGN_UP_WINDOW_MS;
  const signUpsByAddress = new WindowThrottle(store, 'sign-ups by address', {
    limit: limits.signUpsPerAddress,
    windowMs,
    whenUncounted: 'allow',
  });
  const signUpsInAll = new WindowThrottle(store, 'sign-ups in all', {
    limit: limits.signUpsInAll,
    windowMs,
    whenUncounted: 'allow',
    maxKeys: 1,
  });
  const hashing = pLimit(HASHING_AT_ONCE);

  const addressOf = (headers: Headers | undefined): string | null => {
    const address = headers?.get(CLIENT_ADDRESS_HEADER);
    return address ? clientKey(address) : null;
  };

  /**
   * Sign-up's password hashed before the provider's transaction opens (keyed by the password's
   * SHA-256, never the password): on PostgreSQL the person and their password are written in one
   * transaction (identity-provider.ts), which would otherwise hold a pooled connection while it
   * waits its turn in the hash queue, and a burst of sign-ups would take every connection. Any
   * hash of a password checks that password, so whichever sign-up uses it, it is right. Bounded:
   * the oldest go first (a sign-up refused after hashing leaves its entry).
   */
  const prehashed = new Map<string, string>();
  const digestOf = (password: string) => createHash('sha256').update(password).digest('base64');
  const hashOnce = (password: string): Promise<string> => {
    const key = digestOf(password);
    const ready = prehashed.get(key);
    if (ready === undefined) return throttled(() => hashPassword(password));
    prehashed.delete(key);
    return Promise.resolve(ready);
  };

  const throttled = <T>(work: () => Promise<T>): Promise<T> => {
    if (hashing.pendingCount >= HASHING_QUEUE_MAX) {
      return Promise.reject(tooMany(5, 'The service is busy. Try again in a moment.'));
    }
    return hashing(work);
  };

  const before = createAuthMiddleware(async (ctx) => {
    const body = ctx.body as Body;
    if (ctx.path === '/sign-up/email') {
      const email = checkedEmail(body);
      const name = checkedName(body?.name);
      const problem = passwordProblem(typeof body?.password === 'string' ? body.password : '');
      if (problem) throw fail('BAD_REQUEST', 'WEAK_PASSWORD', problem);
      const address = addressOf(ctx.headers);
      // Calls from our own code (demo data, fixtures) carry no client address and no limit.
      if (address) {
        // The ceiling in all counts only sign-ups their address's limit let through.
        const wait = (await signUpsByAddress.take(address)) || (await signUpsInAll.take('all'));
        if (wait > 0) throw tooMany(wait, 'Too many new accounts just now. Try again later.');
      }
      // After the limits: what sign-up tells of an address (banned, taken) is counted, so
      // probing addresses through it is as slow as making accounts (decision 036).
      if (await isBanned(db, email)) throw banned();
      const password = body?.password as string;
      const hash = await throttled(() => hashPassword(password));
      prehashed.set(digestOf(password), hash);
      if (prehashed.size > PREHASHED_MAX) prehashed.delete(prehashed.keys().next().value as string);
      return { context: { body: { ...body, email, name } } };
    }
    if (ctx.path === '/sign-in/email') {
      const email = checkedEmail(body);
      const key = `${addressOf(ctx.headers) ?? 'server'}|${email}`;
      // Counted before the password is checked: guesses sent at once count, every one of them.
      const wait = await signInTries.take(key).catch(unavailable);
      if (wait > 0) throw tooMany(wait, 'Too many failed sign-in attempts. Try again later.');
      // An unknown address is left to the provider, which answers it as a wrong password after
      // hashing the one given (as long as checking one): a sign-in tells no one whether an
      // address has an account (decision 036).
      return { context: { body: { ...body, email } } };
    }
    if (ctx.path === '/reset-password') {
      // A new password follows the rules a first one does.
      const problem = passwordProblem(
        typeof body?.newPassword === 'string' ? body.newPassword : '',
      );
      if (problem) throw fail('BAD_REQUEST', 'WEAK_PASSWORD', problem);
      return;
    }
    if (ctx.path === '/request-password-reset' || ctx.path === '/send-verification-email') {
      // The address checked before anything is looked up or kept about it.
      return { context: { body: { ...body, email: checkedEmail(body) } } };
    }
    if (ctx.path === '/update-user' && body && 'name' in body) {
      return { context: { body: { ...body, name: checkedName(body.name) } } };
    }
  });

  const after = createAuthMiddleware(async (ctx) => {
    if (ctx.path !== '/sign-in/email') return;
    const body = ctx.body as Body;
    const email = typeof body?.email === 'string' ? body.email : '';
    const key = `${addressOf(ctx.headers) ?? 'server'}|${email}`;
    // A success clears the tries; a failure was counted when it was tried.
    if (!isAPIError(ctx.context.returned)) await signInTries.reset(key);
  });

  return {
    hooks: { before, after },
    databaseHooks: {
      user: {
        create: {
          // Every way an identity is made (e-mail, Google) passes here.
          before: async (user: { email: string; name?: string | null }) => {
            if (await isBanned(db, user.email)) throw banned();
            const name = (user.name ?? '').trim().slice(0, NAME_MAX_LENGTH);
            return { data: { ...user, name } };
          },
        },
      },
    },
    password: {
      hash: hashOnce,
      verify: (input: { hash: string; password: string }) => throttled(() => verifyPassword(input)),
    },
  };
}

const banned = () =>
  fail('FORBIDDEN', 'ACCOUNT_BANNED', 'This e-mail address may not be used on the marketplace');
