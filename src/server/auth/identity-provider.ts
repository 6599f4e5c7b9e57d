/**
 * The identity provider: Better Auth, embedded in our server at /api/auth, keeping its users
 * and sessions in our database. Google signs in through OpenID Connect when configured.
 */
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { genericOAuth } from 'better-auth/plugins/generic-oauth';
import { eq } from 'drizzle-orm';
import { PASSWORD_MIN_LENGTH } from '../../shared/constants';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { authAccounts, authSessions, authUsers, authVerifications } from '../db/schema';

export type Identity = { uid: string; email: string; name: string };

export interface IdentityProvider {
  /** Answers a request under /api/auth. */
  handle(request: Request): Promise<Response>;
  /** The identity behind a request's session cookie, if any. */
  identityOf(headers: Headers): Promise<Identity | null>;
  /** Creates an e-mail/password identity (demo data, tests). */
  createIdentity(input: { email: string; password: string; name: string }): Promise<Identity>;
  exists(email: string): Promise<boolean>;
  googleEnabled: boolean;
}

export const AUTH_BASE_PATH = '/api/auth';

export function createIdentityProvider(db: Db, config: Config, secret: string): IdentityProvider {
  const googleEnabled = Boolean(config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET);
  const issuer = config.GOOGLE_ISSUER.replace(/\/$/, '');
  const auth = betterAuth({
    appName: 'Phone Market',
    secret,
    basePath: AUTH_BASE_PATH,
    // Behind a proxy the public address is known; otherwise trust the host each request was made to.
    baseURL: config.PUBLIC_URL ?? {
      allowedHosts: ['*'],
      protocol: 'auto',
      fallback: `http://localhost:${config.PORT}`,
    },
    trustedOrigins: (request) =>
      config.PUBLIC_URL ? [config.PUBLIC_URL] : request ? [new URL(request.url).origin] : [],
    database: drizzleAdapter(db, {
      provider: 'pg',
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
    },
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    // Sign-in failures are limited by our own throttle (see auth routes).
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    // Failed sign-ins are expected traffic; only the provider's own errors are worth a log line.
    logger: { level: 'error' },
    advanced: {
      // Explicit, so the origin and CSRF checks also run under test runners (Better Auth skips them there).
      disableOriginCheck: false,
      disableCSRFCheck: false,
      useSecureCookies: config.PUBLIC_URL?.startsWith('https://') ?? false,
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

  const toIdentity = (u: { id: string; email: string; name: string }): Identity => ({
    uid: u.id,
    email: u.email,
    name: u.name,
  });

  return {
    googleEnabled,
    handle: (request) => auth.handler(request),
    async identityOf(headers) {
      const session = await auth.api.getSession({ headers });
      return session ? toIdentity(session.user) : null;
    },
    async createIdentity(input) {
      const result = await auth.api.signUpEmail({ body: input });
      return toIdentity(result.user);
    },
    async exists(email) {
      const rows = await db
        .select({ id: authUsers.id })
        .from(authUsers)
        .where(eq(authUsers.email, email.toLowerCase()))
        .limit(1);
      return rows.length > 0;
    },
  };
}
