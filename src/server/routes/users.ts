/** Accounts on the product server: role checks, saving the user record, and access tokens. */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { calls, errorSchema } from '../../shared/api';
import { NAME_MAX_LENGTH } from '../../shared/constants';
import type { SignedInIdentity } from '../auth/identity-provider';
import { webHeadersOf } from '../auth/web-headers';
import { banEmail, isBanned, liftBan, listBans } from '../repositories/bans';
import {
  deleteAccount,
  findUserByEmail,
  findUserById,
  isAdminEmail,
  listUsers,
  removeIdentity,
  saveUserRecord,
  verifySeller,
} from '../repositories/users';
import { errorResponses } from './error-responses';
import { setNextLink } from './next-link';

const users_: FastifyPluginAsyncZod = async (app) => {
  /** The identity proven by the session cookie, which must be the one of `email`. */
  const identityFor = async (request: FastifyRequest, email: string): Promise<SignedInIdentity> => {
    const identity = await app.identity.identityOf(webHeadersOf(request));
    if (!identity) throw app.httpErrors.unauthorized('Sign in first');
    if (identity.email.toLowerCase() !== email) {
      throw app.httpErrors.forbidden('You may only act for the e-mail you signed in with');
    }
    // A banned address has no identity; this holds even if one was made before the ban.
    if (await isBanned(app.db, email))
      throw app.httpErrors.forbidden('This e-mail address may not be used on the marketplace');
    return identity;
  };

  app.get(
    calls.adminCheck.path,
    {
      schema: {
        tags: ['users'],
        params: calls.adminCheck.params,
        response: { 200: calls.adminCheck.response, 400: errorSchema },
      },
    },
    async (request) => ({
      isAdmin: await isAdminEmail(app.db, request.params.email, app.adminEmails),
    }),
  );

  app.get(
    calls.sellerCheck.path,
    {
      schema: {
        tags: ['users'],
        params: calls.sellerCheck.params,
        response: { 200: calls.sellerCheck.response, 400: errorSchema },
      },
    },
    async (request) => ({
      isSeller: (await findUserByEmail(app.db, request.params.email))?.type === 'seller',
    }),
  );

  for (const [call, type] of [
    [calls.listBuyers, 'user'],
    [calls.listSellers, 'seller'],
  ] as const) {
    app.get(
      call.path,
      {
        preHandler: [app.authenticate, app.requireAdmin],
        schema: {
          tags: ['users'],
          security: [{ bearer: [] }],
          querystring: call.query,
          response: { 200: call.response, 400: errorSchema, 401: errorSchema, 403: errorSchema },
        },
      },
      async (request, reply) => {
        const page = await listUsers(app.db, type, request.query, app.adminEmails);
        setNextLink(request, reply, page.nextCursor);
        return page.items;
      },
    );
  }

  app.put(
    calls.verifySeller.path,
    {
      preHandler: [app.authenticate, app.requireAdmin],
      schema: {
        tags: ['users'],
        security: [{ bearer: [] }],
        params: calls.verifySeller.params,
        response: { 200: calls.verifySeller.response, ...errorResponses },
      },
    },
    async (request) => {
      const { email } = request.params;
      if ((await findUserByEmail(app.db, email))?.type !== 'seller')
        throw app.httpErrors.notFound('No seller uses this e-mail');
      return { modifiedCount: await verifySeller(app.db, email) };
    },
  );

  app.delete(
    calls.deleteUser.path,
    {
      preHandler: [app.authenticate, app.requireAdmin],
      schema: {
        tags: ['users'],
        security: [{ bearer: [] }],
        querystring: calls.deleteUser.query,
        response: { 200: calls.deleteUser.response, ...errorResponses },
      },
    },
    async (request) => {
      const row = await findUserById(app.db, request.query.id);
      if (!row) throw app.httpErrors.notFound('No such account');
      if (await isAdminEmail(app.db, row.email, app.adminEmails))
        throw app.httpErrors.forbidden('An admin account cannot be deleted');
      return { deletedCount: await deleteAccount(app.db, row) };
    },
  );

  app.get(
    calls.listBans.path,
    {
      preHandler: [app.authenticate, app.requireAdmin],
      schema: {
        tags: ['users'],
        security: [{ bearer: [] }],
        querystring: calls.listBans.query,
        response: {
          200: calls.listBans.response,
          400: errorSchema,
          401: errorSchema,
          403: errorSchema,
        },
      },
    },
    async (request, reply) => {
      const page = await listBans(app.db, request.query);
      setNextLink(request, reply, page.nextCursor);
      return page.items;
    },
  );

  app.post(
    calls.banEmail.path,
    {
      preHandler: [app.authenticate, app.requireAdmin],
      schema: {
        tags: ['users'],
        security: [{ bearer: [] }],
        body: calls.banEmail.body,
        response: { 200: calls.banEmail.response, ...errorResponses },
      },
    },
    async (request) => {
      const { email } = request.body;
      const account = await findUserByEmail(app.db, email);
      if (await isAdminEmail(app.db, email, app.adminEmails))
        throw app.httpErrors.forbidden('An admin account cannot be banned');
      // The account goes with the ban (sessions, tokens, listings; paid records stay).
      const deletedCount = account
        ? await deleteAccount(app.db, account, 'banned')
        : (await removeIdentity(app.db, email), 0);
      await banEmail(app.db, email, 'banned');
      return { acknowledged: true, deletedCount };
    },
  );

  app.delete(
    calls.liftBan.path,
    {
      preHandler: [app.authenticate, app.requireAdmin],
      schema: {
        tags: ['users'],
        security: [{ bearer: [] }],
        querystring: calls.liftBan.query,
        response: { 200: calls.liftBan.response, ...errorResponses },
      },
    },
    async (request) => {
      if (!(await liftBan(app.db, request.query.email)))
        throw app.httpErrors.notFound('This address is not banned');
      return { deletedCount: 1 };
    },
  );

  app.post(
    calls.saveUser.path,
    {
      schema: {
        tags: ['users'],
        body: calls.saveUser.body,
        response: {
          200: calls.saveUser.response,
          400: errorSchema,
          401: errorSchema,
          403: errorSchema,
        },
      },
    },
    async (request) => {
      const { email, name, type } = request.body;
      await identityFor(request, email);
      // An existing record keeps its type: a seller signing in with Google stays a seller.
      await saveUserRecord(app.db, { email, name, type });
      return { acknowledged: true };
    },
  );

  /** Identities proven by a route's preHandler, for its rate-limit key and its handler. */
  const proven = new WeakMap<FastifyRequest, SignedInIdentity>();

  app.get(
    calls.getToken.path,
    {
      preHandler: async (request: FastifyRequest<{ Querystring: { email: string } }>) => {
        proven.set(request, await identityFor(request, request.query.email));
      },
      // Per signed-in identity, counted after the session is proven: per address would throttle
      // every phone behind one carrier address, and per e-mail in the query would let anybody
      // use up somebody else's allowance.
      config: {
        rateLimit: {
          max: 30,
          timeWindow: '1 minute',
          hook: 'preHandler',
          keyGenerator: (request) => `jwt:${proven.get(request)?.email.toLowerCase()}`,
        },
      },
      schema: {
        tags: ['users'],
        querystring: calls.getToken.query,
        response: {
          200: calls.getToken.response,
          400: errorSchema,
          401: errorSchema,
          403: errorSchema,
          429: errorSchema,
        },
      },
    },
    async (request) => {
      const { email } = request.query;
      const identity = proven.get(request) as SignedInIdentity; // proven by the preHandler above
      // An identity whose record was never saved (a failed sign-up step) becomes a buyer.
      const account = await saveUserRecord(app.db, {
        email,
        name: identity.name.slice(0, NAME_MAX_LENGTH),
        type: 'user',
      });
      return {
        accessToken: await app.accessTokens.issue({
          userId: account.id,
          sessionId: identity.sessionId,
        }),
      };
    },
  );
};

export default users_;
