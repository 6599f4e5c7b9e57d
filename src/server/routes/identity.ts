/**
 * Mounts the identity provider at /api/auth. Our rules about sign-in and sign-up (password and
 * name rules, the lockout, sign-up limits, bans) run inside the provider on the endpoint it
 * resolved (auth/identity-guard.ts), so they hold however a URL is spelled. Here: same-site POSTs
 * only, JSON object bodies only, URLs only in their one normal spelling, the client's address
 * handed on from our own reading of it, and a password reset answered before its work is done.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { emailSchema } from '../../shared/api';
import { CLIENT_ADDRESS_HEADER } from '../auth/identity-guard';
import { AUTH_BASE_PATH } from '../auth/identity-provider';
import { webHeadersOf } from '../auth/web-headers';

const RESET_REQUEST_PATH = `${AUTH_BASE_PATH}/request-password-reset`;
/** The provider's own answer to a reset request, which we now give for it. */
const RESET_REQUESTED = {
  status: true,
  message: 'If this email exists in our system, check your email for the reset link',
};

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

/**
 * A password reset is answered before anything is looked up: its look-up, token and mail run
 * after the answer (one address's in order, so its hourly share of mail holds), and an address
 * with an account is answered as one without is, in the same time (decision 036). What is checked
 * first is what the request itself shows: the address's form.
 */
function requestReset(request: FastifyRequest, reply: FastifyReply, forwarded: Request) {
  const body = request.body as Record<string, unknown> | undefined;
  const email = emailSchema.safeParse(body?.email);
  if (!email.success) return identityError(reply, 400, 'INVALID_EMAIL', 'Invalid email address');
  if (body?.redirectTo !== undefined && typeof body.redirectTo !== 'string') {
    return identityError(reply, 400, 'VALIDATION_ERROR', 'redirectTo must be a path on this site');
  }
  const afterAnswer = request.server.afterAnswer;
  if (afterAnswer.full) {
    reply.header('retry-after', '5');
    return identityError(
      reply,
      429,
      'TOO_MANY_REQUESTS',
      'The service is busy. Try again in a moment.',
    );
  }
  const log = request.log;
  afterAnswer.run(email.data, 'password reset', async () => {
    const response = await request.server.identity.handle(forwarded);
    if (response.status >= 500)
      throw new Error(`the identity provider answered ${response.status}`);
    // Refused by the provider (its per-address limit, a redirect to another site): no mail.
    if (!response.ok) {
      const refusal = (await response.json().catch(() => null)) as { code?: string } | null;
      log.warn({ status: response.status, code: refusal?.code }, 'password reset refused');
    }
  });
  return reply.code(200).send(RESET_REQUESTED);
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
      const forwarded = new Request(url, { method: request.method, headers, body });
      if (request.method === 'POST' && url.pathname === RESET_REQUEST_PATH) {
        return requestReset(request, reply, forwarded);
      }
      const response = await app.identity.handle(forwarded);
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
