/**
 * Mounts the identity provider at /api/auth. Around it: the password rules of spec section 5
 * (enforced here too, not only in the browser), 'user-not-found' for an unknown e-mail, and a
 * limit on failed sign-ins that answers 429.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { passwordProblem } from '../../shared/identity';
import { FailureThrottle } from '../auth/failure-throttle';
import { AUTH_BASE_PATH } from '../auth/identity-provider';
import { webHeadersOf } from '../auth/web-headers';

type Body = Record<string, unknown> | undefined;

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

export default async function identityRoutes(app: FastifyInstance) {
  const throttle = new FailureThrottle();

  /** Each request's body as forwarded, written once here so a hostile body is refused early. */
  const bodyTexts = new WeakMap<FastifyRequest, string>();

  app.addHook('preHandler', async (request, reply) => {
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

  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    const url = new URL(request.url, `${request.protocol}://${request.host}`);
    const headers = webHeadersOf(request);
    const body = bodyTexts.get(request);
    if (body !== undefined) headers.set('content-type', 'application/json');
    headers.delete('content-length');
    const response = await app.identity.handle(
      new Request(url, { method: request.method, headers, body }),
    );
    reply.code(response.status);
    for (const [key, value] of response.headers) {
      if (key === 'set-cookie' || key === 'content-length' || key === 'content-encoding') continue;
      reply.header(key, value);
    }
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) reply.header('set-cookie', cookies);
    return { status: response.status, body: await response.text() };
  };

  app.post(
    `${AUTH_BASE_PATH}/sign-up/email`,
    { schema: { hide: true } },
    async (request, reply) => {
      const body = request.body as Body;
      const password = typeof body?.password === 'string' ? body.password : '';
      const name = typeof body?.name === 'string' ? body.name.trim() : '';
      if (!name) return identityError(reply, 400, 'NAME_REQUIRED', 'Name is required');
      const problem = passwordProblem(password);
      if (problem) return identityError(reply, 400, 'WEAK_PASSWORD', problem);
      const result = await forward(request, reply);
      return reply.send(result.body);
    },
  );

  app.post(
    `${AUTH_BASE_PATH}/sign-in/email`,
    { schema: { hide: true } },
    async (request, reply) => {
      const body = request.body as Body;
      const email = typeof body?.email === 'string' ? body.email.trim().toLowerCase() : '';
      const key = `${request.ip}|${email}`;
      const wait = throttle.retryAfter(key);
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        return identityError(
          reply,
          429,
          'TOO_MANY_REQUESTS',
          'Too many failed sign-in attempts. Try again later.',
        );
      }
      if (email && !(await app.identity.exists(email))) {
        throttle.fail(key);
        return identityError(reply, 401, 'USER_NOT_FOUND', 'No account uses this e-mail');
      }
      const result = await forward(request, reply);
      if (result.status === 200) throttle.succeed(key);
      else if (result.status === 401) throttle.fail(key);
      return reply.send(result.body);
    },
  );

  app.route({
    method: ['GET', 'POST'],
    url: `${AUTH_BASE_PATH}/*`,
    schema: { hide: true },
    handler: async (request, reply) => {
      const result = await forward(request, reply);
      return reply.send(result.body);
    },
  });
}
