/**
 * `POST /api/stripe/webhook`: Stripe tells us a payment succeeded, so it is recorded even when
 * the buyer's browser closed before its own record call. Only calls signed with our webhook
 * secret count; the signature covers the raw body, so this route keeps the bytes as they came.
 */
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { errorSchema } from '../../shared/api';
import type { StripePaymentProvider } from '../payments/stripe-provider';

export const STRIPE_WEBHOOK_PATH = '/stripe/webhook';

const stripeWebhook: FastifyPluginAsync<{
  provider: StripePaymentProvider;
  record: (intentId: string) => Promise<string>;
}> = async (app, { provider, record }) => {
  // Encapsulated: only this route sees JSON as bytes.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    STRIPE_WEBHOOK_PATH,
    {
      schema: {
        tags: ['payments'],
        summary: "Stripe's events (signed with the webhook secret)",
        response: { 200: z.object({ received: z.literal(true) }), 400: errorSchema },
      },
    },
    async (request) => {
      const signature = request.headers['stripe-signature'];
      const event = provider.eventFrom(
        request.body as Buffer,
        typeof signature === 'string' ? signature : undefined,
      );
      if (!event) throw app.httpErrors.badRequest('stripe-signature: does not match the payload');
      if (event.type === 'payment_intent.succeeded') {
        await record(event.data.object.id).catch((err) => {
          // Not one of ours (404), or the phone went to another buyer and this one was refunded (409).
          if (err.statusCode !== 404 && err.statusCode !== 409) throw err;
        });
      }
      return { received: true as const };
    },
  );
};

export default stripeWebhook;
