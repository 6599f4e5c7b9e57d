/** Security headers: a strict Content-Security-Policy with no inline script, no framing, no sniffing. */
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export default fp(async function security(
  app: FastifyInstance,
  opts: { imageOrigins: string[]; uploadOrigins: string[]; stripe: boolean },
) {
  // Stripe Elements: its script, its card iframe (and 3-D Secure's), its API. Stripe's CSP list.
  const stripe = opts.stripe
    ? {
        script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
        frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
        connect: ['https://api.stripe.com'],
      }
    : { script: [], frame: [], connect: [] };
  await app.register(helmet, {
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
  // Limits apply per route (`config.rateLimit`); public reads are cheap keyset queries.
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => ({
      statusCode: context.statusCode,
      message: `Too many requests, please try again in ${context.after}.`,
    }),
  });
});
