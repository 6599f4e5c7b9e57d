/**
 * Routes declared from the contract (src/shared/api.ts): a call's entry gives the method, the
 * URL, the schemas of its params, query, body and answer, the error answers its access implies,
 * its OpenAPI tag and security, and the guards its access names. A route file is then a list
 * of rules and handlers: `route('deleteProduct', async (request) => ...)`.
 */
import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  preHandlerHookHandler,
  RouteHandlerMethod,
} from 'fastify';
import type { z } from 'zod';
import { type Access, type Call, calls, errorSchema } from '../../shared/api';
import type { CallName } from '../../shared/call-routes';
import type { Page } from '../repositories/page';
import { setNextLink } from './next-link';

type Part = 'params' | 'query' | 'body';
type Input<C, P extends Part> = C extends { [K in P]: z.ZodType } ? z.output<C[P]> : unknown;

/** The request of call `K`, typed by its parsed params, query and body. */
export type CallRequest<K extends CallName> = FastifyRequest<{
  Params: Input<(typeof calls)[K], 'params'>;
  Querystring: Input<(typeof calls)[K], 'query'>;
  Body: Input<(typeof calls)[K], 'body'>;
}>;

type Answer<K extends CallName> = z.input<(typeof calls)[K]['response']>;
type Handler<K extends CallName> = (
  request: CallRequest<K>,
  reply: FastifyReply,
) => Promise<Answer<K> | FastifyReply>;

type Extras<K extends CallName> = {
  /**
   * Calls a minute one key may make. Counted after the guards, by the caller's account, the
   * proven identity or `by`; a public call without `by` counts per client address on arrival.
   */
  limit?: { perMinute: number; by?: (request: CallRequest<K>) => string };
  /** Answers besides success and the errors its access implies (a card decline, a 503). */
  responses?: Record<number, z.ZodType>;
  /** The success status, when it is not 200. */
  status?: number;
  consumes?: string[];
};

export type DeclareRoute = <K extends CallName>(
  name: K,
  ...rest: [handler: Handler<K>] | [extras: Extras<K>, handler: Handler<K>]
) => void;

/** The `{ message }` answers each access may give besides its success and a 429. */
const ERRORS_OF: Record<Access, number[]> = {
  public: [400],
  identity: [400, 401, 403],
  bearer: [400, 401, 403, 404, 409],
  admin: [400, 401, 403, 404, 409],
  seller: [400, 401, 403, 404, 409],
  buyer: [400, 401, 403, 404, 409],
};

const bearer = (access: Access) => access !== 'public' && access !== 'identity';

/**
 * The limits against guessing a secret: cards tried against one payment intent, handover codes.
 * While the store that counts limits is down these calls are refused (503), as an outage must
 * not open the door to guessing; every other limit is against floods and lets calls through.
 */
const GUESSING_LIMITS: ReadonlySet<CallName> = new Set([
  'confirmTestPayment',
  'handOver',
  // The password asked again before a payout account is set.
  'setPayoutAccount',
  'payoutOnboarding',
]);

function guardsOf(app: FastifyInstance, access: Access): preHandlerHookHandler[] {
  switch (access) {
    case 'public':
      return [];
    case 'identity':
      return [app.requireIdentity];
    case 'bearer':
      return [app.authenticate];
    case 'admin':
      return [app.authenticate, app.requireAdmin];
    case 'seller':
      return [app.authenticate, app.requireSeller];
    case 'buyer':
      return [app.authenticate, app.requireBuyer];
  }
}

/** Who a limit counts by default: the account, the proven identity, or (null) the address. */
function defaultKeyOf(access: Access): ((request: FastifyRequest) => string) | null {
  if (access === 'public') return null;
  if (access === 'identity') return (request) => request.identity?.email.toLowerCase() ?? '';
  return (request) => request.caller?.id ?? request.ip;
}

function rateLimitOf(
  name: CallName,
  access: Access,
  perMinute: number,
  by: ((request: FastifyRequest) => string) | undefined,
) {
  const key = by ?? defaultKeyOf(access);
  const skipOnError = !GUESSING_LIMITS.has(name);
  if (!key) return { max: perMinute, timeWindow: '1 minute', skipOnError };
  return {
    max: perMinute,
    timeWindow: '1 minute',
    skipOnError,
    // After parsing and the guards, so the key can be the caller, the identity or the body.
    hook: 'preHandler' as const,
    keyGenerator: (request: FastifyRequest) => `${name}:${key(request)}`,
  };
}

function declarerFor(app: FastifyInstance): DeclareRoute {
  return (name, ...rest) => {
    const [extras, handler] = rest.length === 1 ? [{}, rest[0]] : rest;
    const call: Call = calls[name];
    const errors = ERRORS_OF[call.access].concat(
      extras.limit ? [429] : [],
      extras.limit && GUESSING_LIMITS.has(name) ? [503] : [],
    );
    app.route({
      method: call.method,
      url: call.path,
      preHandler: guardsOf(app, call.access),
      config: {
        ...(extras.limit
          ? {
              rateLimit: rateLimitOf(
                name,
                call.access,
                extras.limit.perMinute,
                extras.limit.by as ((request: FastifyRequest) => string) | undefined,
              ),
            }
          : {}),
      },
      schema: {
        tags: [call.tag],
        ...(bearer(call.access) ? { security: [{ bearer: [] }] } : {}),
        ...(call.params ? { params: call.params } : {}),
        ...(call.query ? { querystring: call.query } : {}),
        ...(call.body ? { body: call.body } : {}),
        ...(extras.consumes ? { consumes: extras.consumes } : {}),
        response: {
          [extras.status ?? 200]: call.response,
          ...Object.fromEntries(errors.map((status) => [status, errorSchema])),
          ...extras.responses,
        },
      },
      handler: handler as unknown as RouteHandlerMethod,
    });
  };
}

/** A plugin of routes declared from the contract. */
export function contractRoutes<Options extends object = Record<never, never>>(
  declare: (route: DeclareRoute, app: FastifyInstance, options: Options) => Promise<void> | void,
): FastifyPluginAsync<Options> {
  return async (app, options) => {
    await declare(declarerFor(app), app, options);
  };
}

/** A page of a list as its items, with the next page's URL in the `Link` header. */
export function pageAnswer<T>(request: FastifyRequest, reply: FastifyReply, page: Page<T>): T[] {
  setNextLink(request, reply, page.nextCursor);
  return page.items;
}
