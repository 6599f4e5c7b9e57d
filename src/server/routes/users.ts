/** Accounts on the product server: role checks, saving the user record, and access tokens. */
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { calls, errorSchema } from '../../shared/api';
import type { Identity } from '../auth/identity-provider';
import { webHeadersOf } from '../auth/web-headers';
import { users } from '../db/schema';
import { deleteAccount, listUsers, verifySeller } from '../repositories/users';
import { errorResponses } from './error-responses';
import { setNextLink } from './next-link';

const users_: FastifyPluginAsyncZod = async (app) => {
  /** The identity proven by the session cookie, which must be the one of `email`. */
  const identityFor = async (request: FastifyRequest, email: string): Promise<Identity> => {
    const identity = await app.identity.identityOf(webHeadersOf(request));
    if (!identity) throw app.httpErrors.unauthorized('Sign in first');
    if (identity.email.toLowerCase() !== email) {
      throw app.httpErrors.forbidden('You may only act for the e-mail you signed in with');
    }
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
    async (request) => ({ isAdmin: app.adminEmails.has(request.params.email) }),
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
    async (request) => {
      const [row] = await app.db
        .select({ type: users.type })
        .from(users)
        .where(eq(users.email, request.params.email))
        .limit(1);
      return { isSeller: row?.type === 'seller' };
    },
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
      const [row] = await app.db
        .select({ type: users.type })
        .from(users)
        .where(eq(users.email, email))
        .limit(1);
      if (row?.type !== 'seller') throw app.httpErrors.notFound('No seller uses this e-mail');
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
      const [row] = await app.db
        .select()
        .from(users)
        .where(eq(users.id, request.query.id))
        .limit(1);
      if (!row) throw app.httpErrors.notFound('No such account');
      if (app.adminEmails.has(row.email))
        throw app.httpErrors.forbidden('An admin account cannot be deleted');
      return { deletedCount: await deleteAccount(app.db, row) };
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
      await app.db
        .insert(users)
        .values({ email, name, type })
        .onConflictDoNothing({ target: users.email });
      return { acknowledged: true };
    },
  );

  /** Identities proven by a route's preHandler, for its rate-limit key and its handler. */
  const proven = new WeakMap<FastifyRequest, Identity>();

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
      const identity = proven.get(request) as Identity; // proven by the preHandler above
      // An identity whose record was never saved (a failed sign-up step) becomes a buyer.
      await app.db
        .insert(users)
        .values({ email, name: identity.name, type: 'user' })
        .onConflictDoNothing({ target: users.email });
      return { accessToken: await app.accessTokens.issue(email) };
    },
  );
};

export default users_;
