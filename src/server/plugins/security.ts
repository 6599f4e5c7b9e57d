/**
 * Security headers: a strict Content-Security-Policy with no inline script, no framing, no
 * sniffing. And the routes' rate limits, counted in the limit store every server shares.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { LimitStore } from '../limits/limit-store';
import { routeLimitStore } from '../limits/route-limit-store';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The headers every answer carries, worked out once: set on each request here, and by
     * `buildApp` on the answers Fastify makes before any hook runs (a malformed URL).
     */
    securityHeaders: Readonly<Record<string, string>>;
  }
}

/**
 * Helmet's headers, worked out once. Our policy is the same for every answer (no nonces, no
 * per-request directives), so there is nothing to compute per request; `@fastify/helmet` rebuilt
 * the whole policy for every request, half of the server's time on a cached answer (decision 015).
 */
function headersOf(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: () => {},
  };
  helmet(options)({} as never, recorder as never, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

export default fp(async function security(
  app: FastifyInstance,
  opts: { imageOrigins: string[]; uploadOrigins: string[]; stripe: boolean; limits: LimitStore },
) {
  // Stripe Elements: its script, its card iframe (and 3-D Secure's), its API. Stripe's CSP list.
  const stripe = opts.stripe
    ? {
        script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
        frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
        connect: ['https://api.stripe.com'],
      }
    : { script: [], frame: [], connect: [] };
  const headers = headersOf({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...stripe.script],
        // react-hot-toast injects its own small <style>; scripts stay strict.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...opts.imageOrigins],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...opts.uploadOrigins, ...stripe.connect],
        frameSrc: stripe.frame.length > 0 ? stripe.frame : ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
  app.decorate('securityHeaders', headers);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  // Limits apply per route (`config.rateLimit`); public reads are cheap keyset queries.
  await app.register(rateLimit, {
    global: false,
    store: routeLimitStore(opts.limits),
    // While the store cannot count, a limit lets calls through unless its route says otherwise
    // (a limit against guessing sets false and answers 503): see limits/limit-store.ts.
    skipOnError: true,
    errorResponseBuilder: (_request, context) => ({
      statusCode: context.statusCode,
      message: `Too many requests, please try again in ${context.after}.`,
    }),
  });
});
