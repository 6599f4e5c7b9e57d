/**
 * The one authorization layer: the bearer token gives the caller, looked up fresh in the
 * database on every call with the session it was issued for (so a token stops working at once
 * when its session ends: sign-out, a deleted or banned account); helpers
 * require a role or ownership. 401 for a missing, expired or forged token; 403 otherwise.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AccessTokens } from '../auth/access-tokens';
import type { IdentityProvider, SignedInIdentity } from '../auth/identity-provider';
import { webHeadersOf } from '../auth/web-headers';
import { isBanned } from '../repositories/bans';
import { accountOfSession } from '../repositories/users';

export type Caller = {
  /** The account (users row id): what a person's records are keyed on. */
  id: string;
  email: string;
  name: string;
  type: 'user' | 'seller';
  userStatus: string | null;
  isAdmin: boolean;
};

declare module 'fastify' {
  interface FastifyInstance {
    identity: IdentityProvider;
    accessTokens: AccessTokens;
    adminEmails: ReadonlySet<string>;
    /** preHandler: a valid bearer token of an existing account. */
    authenticate: (request: FastifyRequest) => Promise<void>;
    /** preHandler after `authenticate`: an admin. */
    requireAdmin: (request: FastifyRequest) => Promise<void>;
    /** preHandler after `authenticate`: a seller. */
    requireSeller: (request: FastifyRequest) => Promise<void>;
    /** preHandler after `authenticate`: a buyer (a user account; sellers sell). */
    requireBuyer: (request: FastifyRequest) => Promise<void>;
    /**
     * preHandler: the identity provider's session proves the identity whose `email` the query or
     * body names (the calls made before there is an access token), and the address is not banned.
     */
    requireIdentity: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    caller: Caller | null;
    /** The identity session the caller's token stands for (a live stream ends with it). */
    callerSessionId: string | null;
    /** The identity `requireIdentity` proved. */
    identity: SignedInIdentity | null;
  }
}

/** The caller set by `authenticate`; routes that use it run after it. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw request.server.httpErrors.unauthorized('Sign in first');
  return request.caller;
}

/** The identity set by `requireIdentity`; routes that use it run after it. */
export function identityOf(request: FastifyRequest): SignedInIdentity {
  if (!request.identity) throw request.server.httpErrors.unauthorized('Sign in first');
  return request.identity;
}

/** 403 unless the caller is the owner of `email` (or an admin, where admins may act). */
export function assertOwner(
  request: FastifyRequest,
  email: string,
  { adminMay = false } = {},
): Caller {
  const caller = callerOf(request);
  if (caller.email === email.toLowerCase() || (adminMay && caller.isAdmin)) return caller;
  throw request.server.httpErrors.forbidden('You may only act on your own account');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type AuthOptions = {
  identity: IdentityProvider;
  accessTokens: AccessTokens;
  adminEmails: ReadonlySet<string>;
};

export default fp(async function auth(app: FastifyInstance, opts: AuthOptions) {
  app.decorate('identity', opts.identity);
  app.decorate('accessTokens', opts.accessTokens);
  app.decorate('adminEmails', opts.adminEmails);
  app.decorateRequest('caller', null);
  app.decorateRequest('callerSessionId', null);
  app.decorateRequest('identity', null);

  app.decorate('authenticate', async (request: FastifyRequest) => {
    const header = request.headers.authorization ?? '';
    const match = /^bearer\s+(\S+)$/i.exec(header.trim());
    if (!match?.[1]) throw app.httpErrors.unauthorized('Missing access token');
    const verified = await opts.accessTokens.verify(match[1]);
    if ('error' in verified) {
      throw app.httpErrors.unauthorized(
        verified.error === 'expired' ? 'Access token expired' : 'Invalid access token',
      );
    }
    const row = UUID.test(verified.userId)
      ? await accountOfSession(app.db, verified.userId, verified.sessionId, opts.adminEmails)
      : undefined;
    if (!row) throw app.httpErrors.unauthorized('This session has ended; sign in again');
    request.caller = row;
    request.callerSessionId = verified.sessionId;
  });

  app.decorate('requireAdmin', async (request: FastifyRequest) => {
    if (!callerOf(request).isAdmin) throw app.httpErrors.forbidden('Only an admin may do this');
  });

  app.decorate('requireSeller', async (request: FastifyRequest) => {
    if (callerOf(request).type !== 'seller')
      throw app.httpErrors.forbidden('Only a seller may do this');
  });

  app.decorate('requireBuyer', async (request: FastifyRequest) => {
    if (callerOf(request).type !== 'user')
      throw app.httpErrors.forbidden('Only a buyer may do this');
  });

  app.decorate('requireIdentity', async (request: FastifyRequest) => {
    const named = (part: unknown) => (part as { email?: unknown } | undefined)?.email;
    const email = named(request.query) ?? named(request.body);
    const identity = await opts.identity.identityOf(webHeadersOf(request));
    if (!identity) throw app.httpErrors.unauthorized('Sign in first');
    if (typeof email !== 'string' || identity.email.toLowerCase() !== email) {
      throw app.httpErrors.forbidden('You may only act for the e-mail you signed in with');
    }
    // A banned address has no identity; this holds even if one was made before the ban.
    if (await isBanned(app.db, email))
      throw app.httpErrors.forbidden('This e-mail address may not be used on the marketplace');
    request.identity = identity;
  });
});
