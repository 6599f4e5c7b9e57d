/**
 * Mounts the identity provider at /api/auth. Our rules about sign-in and sign-up (password and
 * name rules, the lockout, sign-up limits, bans) run inside the provider on the
 * endpoint it resolved (auth/identity-guard.ts), so they hold however a URL is spelled. Here:
 * same-site POSTs only, JSON object bodies only, URLs only in their one normal spelling, and the
 * client's address handed on from our own reading of it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CLIENT_ADDRESS_HEADER } from '../auth/identity-guard';
import { AUTH_BASE_PATH } from '../auth/identity-provider';
import { webHeadersOf } from '../auth/web-headers';

function identityError(reply: FastifyReply, status: number, code: string, message: string) {
  return reply.code(status).send({ code, message });
}

/**
 * Browsers send Origin on every POST; it must be the public address, or else the origin the
 * request was made to (so localhost, 127.0.0.1 and a LAN address all work unconfigured).
 */
function fromOwnSite(request: FastifyRequest): boolean {
  const publicUrl = request.server.config.PUBLIC_URL;
  const expected = new URL(publicUrl ?? `${request.protocol}://${request.host}`).origin;
  const given = request.headers.origin ?? request.headers.referer;
  if (!given) return false;
  try {
    return new URL(given).origin === expected;
  } catch {
    return false;
  }
}

/**
 * The body as JSON text when it is an object the provider can take, else undefined: arrays,
 * scalars and bodies nested too deep to write back out are not identity requests.
 */
function jsonObjectText(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  try {
    return JSON.stringify(body);
  } catch {
    return undefined;
  }
}

/**
 * Whether a path is in the one spelling the provider's router would give it: no dot segments
 * (`.`, `..`, `%2e`), no empty segments, no trailing slash, no percent-encoding. Another
 * spelling of sign-in is refused rather than left for the router to resolve.
 */
export function isNormalAuthPath(path: string): boolean {
  if (!path.startsWith(`${AUTH_BASE_PATH}/`)) return false;
  return path
    .slice(AUTH_BASE_PATH.length + 1)
    .split('/')
    .every((segment) => /^[A-Za-z0-9_-]+$/.test(segment));
}

export default async function identityRoutes(app: FastifyInstance) {
  /** Each request's body as forwarded, written once here so a hostile body is refused early. */
  const bodyTexts = new WeakMap<FastifyRequest, string>();

  app.addHook('preHandler', async (request, reply) => {
    if (!isNormalAuthPath(request.url.split('?')[0] ?? '')) {
      return identityError(reply, 404, 'NOT_FOUND', 'No such identity call');
    }
    if (request.method === 'GET' || request.method === 'HEAD') return;
    if (!fromOwnSite(request)) {
      return identityError(
        reply,
        403,
        'INVALID_ORIGIN',
        'This request must come from the marketplace itself',
      );
    }
    if (request.body === undefined) return;
    const text = jsonObjectText(request.body);
    if (text === undefined) {
      return identityError(
        reply,
        400,
        'VALIDATION_ERROR',
        'The request body must be a JSON object',
      );
    }
    bodyTexts.set(request, text);
  });

  app.route({
    method: ['GET', 'POST'],
    url: `${AUTH_BASE_PATH}/*`,
    schema: { hide: true },
    handler: async (request, reply) => {
      const url = new URL(request.url, `${request.protocol}://${request.host}`);
      const headers = webHeadersOf(request);
      const body = bodyTexts.get(request);
      if (body !== undefined) headers.set('content-type', 'application/json');
      headers.delete('content-length');
      // Only our reading of the address (trusted proxies applied) reaches the provider.
      headers.delete('x-forwarded-for');
      headers.set(CLIENT_ADDRESS_HEADER, request.ip);
      const response = await app.identity.handle(
        new Request(url, { method: request.method, headers, body }),
      );
      reply.code(response.status);
      for (const [key, value] of response.headers) {
        if (key === 'set-cookie' || key === 'content-length' || key === 'content-encoding')
          continue;
        reply.header(key, value);
      }
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) reply.header('set-cookie', cookies);
      return reply.send(await response.text());
    },
  });
}
