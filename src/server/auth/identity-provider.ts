/**
 * The identity provider: Better Auth, embedded in our server at /api/auth, keeping its users
 * and sessions in our database. Google signs in through OpenID Connect when configured.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { genericOAuth } from 'better-auth/plugins/generic-oauth';
import { and, eq, like } from 'drizzle-orm';
import { PASSWORD_MIN_LENGTH } from '../../shared/constants';
import { EMAIL_CONFIRMED_PATH } from '../../shared/identity';
import type { Config } from '../config';
import { secureCookies } from '../cookies';
import type { Db } from '../db/client';
import { authAccounts, authSessions, authUsers, authVerifications } from '../db/schema';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE,
  isDatabaseUnavailable,
} from '../db/unavailable';
import type { LimitStore } from '../limits/limit-store';
import { resetPasswordMail, verifyEmailMail } from '../mail/messages';
import { type Outbox, type OutgoingMail, writeMails } from '../mail/outbox';
import { identityExists } from '../repositories/users';
import { siteUrlOf } from '../site-url';
import { CLIENT_ADDRESS_HEADER, createIdentityGuard } from './identity-guard';

/**
 * The confirmation link comes back to the page that says the address is confirmed (issue 31),
 * not to the home page without a word: the provider's default landing, `/`, becomes it. A
 * landing the caller chose stays (the provider checked it is on our origin).
 */
function landingOnConfirmed(url: string): string {
  const link = new URL(url);
  const landing = link.searchParams.get('callbackURL');
  if (landing === null || landing === '/')
    link.searchParams.set('callbackURL', EMAIL_CONFIRMED_PATH);
  return link.toString();
}

/**
 * The identity call under way, for the provider's logger (which is not given the request) to
 * note that a database error passed through it: the call's refusal is then an outage's 503.
 */
const identityCalls = new AsyncLocalStorage<{ databaseDown: boolean }>();
const noteOutage = () => {
  const call = identityCalls.getStore();
  if (call) call.databaseDown = true;
};

/** The answer to an identity call the database's absence failed: ask again in a moment. */
const unavailable = () =>
  Response.json(
    { code: 'SERVICE_UNAVAILABLE', message: DATABASE_UNAVAILABLE },
    { status: 503, headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) } },
  );

export type Identity = {
  uid: string;
  email: string;
  name: string;
  /** Whether the owner proved the address (Google's verified e-mail, or our mail's link). */
  emailVerified: boolean;
};

/** An identity signed in right now: its session is what access tokens are issued for. */
export type SignedInIdentity = Identity & { sessionId: string };

export interface IdentityProvider {
  /** Answers a request under /api/auth. */
  handle(request: Request): Promise<Response>;
  /** The identity behind a request's session cookie, if any. */
  identityOf(headers: Headers): Promise<SignedInIdentity | null>;
  /** Creates an e-mail/password identity (demo data, tests). */
  createIdentity(input: { email: string; password: string; name: string }): Promise<Identity>;
  exists(email: string): Promise<boolean>;
  /**
   * Whether `password` is the password of the identity with this e-mail (asked again before a
   * change that moves money, issue 30); `no-password` for an identity that signs in with Google only.
   */
  verifyPassword(email: string, password: string): Promise<boolean | 'no-password'>;
  googleEnabled: boolean;
}

export const AUTH_BASE_PATH = '/api/auth';

/**
 * Without PUBLIC_URL the provider resolves its address from each request on loopback (any
 * port: `npm run dev` puts Vite's port in front of the API's); other hosts fall back to
 * localhost. Never a bare wildcard: every allowed host is also a trusted redirect target, and
 * `*` made every site one (an open redirect).
 */
export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'].flatMap((h) => [h, `${h}:*`]);

/** Mails of one kind an address gets in an hour at most: a reset asked for again and again is no flood. */
const MAILS_PER_HOUR = 3;

/**
 * The provider's limiter over our limit store. A limit against floods: while the store cannot
 * count it lets calls through, and the guard's own limits decide (the lockout refuses).
 */
function providerLimitStorage(limits: LimitStore) {
  const counter = limits.counter('identity provider', { whenUncounted: 'allow' });
  return {
    consume: async (key: string, rule: { window: number; max: number }) => {
      const hit = await counter.hit(key, rule.window * 1000);
      return !hit || hit.count <= rule.max
        ? { allowed: true, retryAfter: null }
        : { allowed: false, retryAfter: Math.max(1, Math.ceil(hit.ttlMs / 1000)) };
    },
  };
}

export function createIdentityProvider(
  db: Db,
  config: Config,
  secret: string,
  outbox: Outbox,
  limits: LimitStore,
  /**
   * Whether its multi-row writes run in one transaction: on PostgreSQL yes (below); not on
   * PGlite, one connection, where a hook's query beside the transaction would wait for it for
   * ever, and one process with no failover to survive.
   */
  { transactions }: { transactions: boolean },
): IdentityProvider {
  // Identities the server makes itself (the demo's, the operator's) are not sent a welcome.
  const quiet = new Set<string>();
  /** Writes a mail for the outbox unless the address had its hourly share of this kind. */
  const mailUnlessFlooded = async (mail: OutgoingMail) => {
    const since = new Date(Date.now() - 60 * 60 * 1000);
    if ((await outbox.countSince(mail.to, mail.kind, since)) >= MAILS_PER_HOUR) {
      outbox.log.warn({ kind: mail.kind }, 'mail not written: this address had its hourly share');
      return;
    }
    await writeMails(db, [mail]);
    outbox.kick();
  };
  const googleEnabled = Boolean(config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET);
  const issuer = config.GOOGLE_ISSUER.replace(/\/$/, '');
  const guard = createIdentityGuard(db, limits, {
    signUpsPerAddress: config.SIGN_UPS_PER_ADDRESS,
    signUpsInAll: config.SIGN_UPS_IN_ALL,
  });
  const auth = betterAuth({
    appName: 'Phone Market',
    secret,
    basePath: AUTH_BASE_PATH,
    // Behind a proxy the public address is known; otherwise see LOOPBACK_HOSTS.
    baseURL: config.PUBLIC_URL ?? {
      allowedHosts: LOOPBACK_HOSTS,
      protocol: 'http',
      fallback: siteUrlOf(config),
    },
    // The origin a request was made to is ours (a LAN address works unconfigured): a victim's
    // browser always names our host, so this never trusts another site.
    trustedOrigins: (request) =>
      config.PUBLIC_URL ? [config.PUBLIC_URL] : request ? [new URL(request.url).origin] : [],
    database: drizzleAdapter(db, {
      provider: 'pg',
      // A sign-up writes the person and their password in one transaction: a failover between
      // the two would otherwise leave an account no one can sign in to (the soak found one).
      transaction: transactions,
      schema: {
        user: authUsers,
        session: authSessions,
        account: authAccounts,
        verification: authVerifications,
      },
    }),
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: 128,
      password: guard.password,
      sendResetPassword: async ({ user, url }) => {
        await mailUnlessFlooded(resetPasswordMail(user.email, url));
      },
      resetPasswordTokenExpiresIn: 60 * 60,
      // A new password signs every device out: whoever knew the old one is out too.
      revokeSessionsOnPasswordReset: true,
      // And every other reset link of the account stops working: one link, one reset.
      onPasswordReset: async ({ user }) => {
        await db
          .delete(authVerifications)
          .where(
            and(
              like(authVerifications.identifier, 'reset-password:%'),
              eq(authVerifications.value, user.id),
            ),
          );
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 60 * 60 * 24,
      sendVerificationEmail: async ({ user, url }) => {
        if (quiet.has(user.email.toLowerCase())) return;
        await mailUnlessFlooded(verifyEmailMail(user.email, landingOnConfirmed(url)));
      },
    },
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    hooks: guard.hooks,
    databaseHooks: guard.databaseHooks,
    // Our guard holds the precise limits (lockout, sign-ups); this is the provider's own per
    // address limit on every identity call, a second layer against floods, counted in the store
    // every server shares.
    rateLimit: {
      enabled: config.IDENTITY_RATE_LIMIT > 0,
      customStorage: providerLimitStorage(limits),
      window: 60,
      max: config.IDENTITY_RATE_LIMIT,
      customRules: {
        '/sign-in/*': { window: 60, max: config.IDENTITY_RATE_LIMIT },
        '/sign-up/*': { window: 60, max: config.IDENTITY_RATE_LIMIT },
        // Every page load asks for the session: a read, not a guess.
        '/get-session': false,
      },
    },
    telemetry: { enabled: false },
    // Failed sign-ins are expected traffic; only the provider's own errors are worth a log line.
    logger: {
      level: 'error',
      // A refused origin or redirect target is answered 403: a caller's mistake or an attack
      // turned away, not a fault of ours.
      log: (level, message, ...args) => {
        // A database away (a failover) is answered 503 by `handle`, not a fault to log.
        if (args.some(isDatabaseUnavailable)) return void noteOutage();
        if (
          /^Invalid (origin|callbackURL|redirectURL|errorCallbackURL|newUserCallbackURL)\b/.test(
            message,
          )
        )
          return;
        console.error(`[identity provider] ${level}: ${message}`, ...args);
      },
    },
    onAPIError: {
      // An error that is not one of its answers (a database call that failed) is thrown to
      // `handle` below, which tells an outage from a fault; its answers (our guard's refusals
      // among them) stay answers.
      throw: true,
    },
    advanced: {
      // Explicit, so the origin and CSRF checks also run under test runners (Better Auth skips them there).
      disableOriginCheck: false,
      disableCSRFCheck: false,
      useSecureCookies: secureCookies(config),
      // The client's address as our server worked it out (trusted proxies applied).
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
    },
    plugins: googleEnabled
      ? [
          genericOAuth({
            config: [
              {
                providerId: 'google',
                clientId: config.GOOGLE_CLIENT_ID as string,
                clientSecret: config.GOOGLE_CLIENT_SECRET as string,
                discoveryUrl: `${issuer}/.well-known/openid-configuration`,
                scopes: ['openid', 'email', 'profile'],
                pkce: true,
              },
            ],
          }),
        ]
      : [],
  });

  const toIdentity = (u: {
    id: string;
    email: string;
    name: string;
    emailVerified: boolean;
  }): Identity => ({ uid: u.id, email: u.email, name: u.name, emailVerified: u.emailVerified });

  return {
    googleEnabled,
    handle: async (request) => {
      const call = { databaseDown: false };
      try {
        const response = await identityCalls.run(call, () => auth.handler(request));
        // A refusal it made of a database error it only logged (sign-up's "Failed to create
        // user", 422): the person is told to ask again, as for every outage.
        if (call.databaseDown && response.status >= 400) return unavailable();
        // Its own 5xx answers are faults, except our guard's 503 while the lockout cannot count
        // (an outage the limit store logs once, not per sign-in).
        if (response.status >= 500 && response.status !== 503)
          console.error(`identity provider answered ${response.status}`);
        return response;
      } catch (err) {
        // The database away (a failover): asked again in a moment, as every call (issue 32).
        if (isDatabaseUnavailable(err)) return unavailable();
        console.error('identity provider failed:', err);
        return Response.json(
          { code: 'INTERNAL_SERVER_ERROR', message: 'Internal Server Error' },
          { status: 500 },
        );
      }
    },
    async identityOf(headers) {
      const session = await auth.api.getSession({ headers });
      return session ? { ...toIdentity(session.user), sessionId: session.session.id } : null;
    },
    async createIdentity(input) {
      const email = input.email.toLowerCase();
      quiet.add(email);
      try {
        const result = await auth.api.signUpEmail({ body: input });
        return toIdentity(result.user);
      } finally {
        quiet.delete(email);
      }
    },
    exists: (email) => identityExists(db, email),
    async verifyPassword(email, password) {
      const [row] = await db
        .select({ hash: authAccounts.password })
        .from(authAccounts)
        .innerJoin(authUsers, eq(authUsers.id, authAccounts.userId))
        .where(
          and(eq(authUsers.email, email.toLowerCase()), eq(authAccounts.providerId, 'credential')),
        )
        .limit(1);
      if (!row?.hash) return 'no-password';
      return guard.password.verify({ hash: row.hash, password });
    },
  };
}
