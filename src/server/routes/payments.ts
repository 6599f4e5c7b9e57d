/**
 * Card payments: a payment intent for the order's own price, the client's record call (accepted
 * only for an intent the provider says succeeded), and the provider's own way of telling us a
 * payment succeeded, so a closed browser loses nothing: the embedded processor's card
 * confirmation, or Stripe's webhook.
 */
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { calls, errorSchema } from '../../shared/api';
import { products } from '../db/schema';
import { EmbeddedPaymentProvider } from '../payments/embedded-processor';
import type { PaymentProvider } from '../payments/payment-provider';
import { PaymentRefusedError, recordPayment, SoldMeanwhileError } from '../payments/record-payment';
import { StripePaymentProvider } from '../payments/stripe-provider';
import { toCents } from '../repositories/money';
import { errorResponses } from './error-responses';
import { ownOrder } from './own-order';
import stripeWebhook from './stripe-webhook';

const cardErrorSchema = z.object({
  error: z.object({
    type: z.literal('card_error'),
    code: z.string(),
    decline_code: z.string().optional(),
    message: z.string(),
  }),
});

const paymentResponses = { ...errorResponses, 503: errorSchema };

const payments: FastifyPluginAsyncZod<{ provider: PaymentProvider }> = async (
  app,
  { provider },
) => {
  /** Records what the provider vouches for (`recordPayment`, the one rule), in HTTP's words. */
  const record = async (intentId: string, orderId?: string) => {
    try {
      return await recordPayment(app.db, provider, intentId, orderId);
    } catch (err) {
      if (err instanceof PaymentRefusedError)
        throw app.httpErrors.badRequest(`transactionId: ${err.message}`);
      if (err instanceof SoldMeanwhileError) throw app.httpErrors.conflict(err.message);
      throw err;
    }
  };

  app.post(
    calls.createPaymentIntent.path,
    {
      preHandler: [app.authenticate],
      config: {
        rateLimit: {
          max: 30,
          timeWindow: '1 minute',
          // After parsing and authentication, so the key can use the body or the caller.
          hook: 'preHandler',
          keyGenerator: (r) => `intent:${r.caller?.email ?? r.ip}`,
        },
      },
      schema: {
        tags: ['payments'],
        security: [{ bearer: [] }],
        body: calls.createPaymentIntent.body,
        response: { 200: calls.createPaymentIntent.response, ...paymentResponses },
      },
    },
    async (request) => {
      const order = await ownOrder(request, request.body.orderId);
      if (order.status === 'paid') throw app.httpErrors.conflict('This order is already paid');
      const [product] = await app.db
        .select({ status: products.status })
        .from(products)
        .where(eq(products.id, order.productId));
      if (product?.status !== 'available')
        throw app.httpErrors.conflict('This phone is no longer for sale');
      // The amount is the order's; a client that asks for another is refused, never charged it.
      if (toCents(request.body.price) !== order.priceCents) {
        throw app.httpErrors.badRequest("price: does not match the order's price");
      }
      const { clientSecret } = await provider.createIntent({
        orderId: order.id,
        amountCents: order.priceCents,
        email: order.email,
      });
      return { clientSecret };
    },
  );

  app.post(
    calls.recordPayment.path,
    {
      preHandler: [app.authenticate],
      schema: {
        tags: ['payments'],
        security: [{ bearer: [] }],
        body: calls.recordPayment.body,
        response: { 200: calls.recordPayment.response, ...paymentResponses },
      },
    },
    async (request) => {
      const order = await ownOrder(request, request.body.orderId);
      return { insertedId: await record(request.body.transactionId, order.id) };
    },
  );
  if (provider instanceof EmbeddedPaymentProvider) {
    app.post(
      calls.confirmTestPayment.path,
      {
        // Per payment intent: guessing cards against one intent is what card testing looks like.
        config: {
          rateLimit: {
            max: 10,
            timeWindow: '1 minute',
            // After parsing and authentication, so the key can use the body or the caller.
            hook: 'preHandler',
            keyGenerator: (r) =>
              `confirm:${String((r.body as { clientSecret?: unknown } | undefined)?.clientSecret)}`,
          },
        },
        schema: {
          tags: ['payments'],
          body: calls.confirmTestPayment.body,
          response: {
            200: calls.confirmTestPayment.response,
            402: cardErrorSchema,
            ...errorResponses,
          },
        },
      },
      async (request, reply) => {
        const result = await provider.confirm(request.body.clientSecret, request.body.card);
        if (!result) throw app.httpErrors.notFound('No such payment intent');
        if ('type' in result) return reply.code(402).send({ error: result });
        if (result.status === 'succeeded') {
          // Recorded here as well as by the client's call, so closing the browser loses nothing.
          await record(result.id).catch((err) => {
            if (err.statusCode !== 409) throw err;
          });
        }
        const latest = (await provider.retrieve(result.id)) ?? result;
        return {
          paymentIntent: {
            id: latest.id,
            status: latest.status === 'refunded' ? 'succeeded' : latest.status,
            amount: latest.amountCents,
            currency: latest.currency,
          },
        };
      },
    );
  }
  if (provider instanceof StripePaymentProvider) {
    await app.register(stripeWebhook, {
      provider,
      record: (intentId) => recordPayment(app.db, provider, intentId),
    });
  }
};

export default payments;
