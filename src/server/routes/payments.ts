/**
 * Card payments: a payment intent for the order's own price, the client's record call (accepted
 * only for an intent the provider says succeeded), and the provider's own way of telling us a
 * payment succeeded, so a closed browser loses nothing: the embedded processor's card
 * confirmation, or Stripe's webhook.
 */
import { z } from 'zod';
import { errorSchema } from '../../shared/api';
import { DomainError } from '../domain/domain-error';
import { orderToPay, ownOrder, type Sales } from '../domain/order-process';
import { EmbeddedPaymentProvider } from '../payments/embedded-processor';
import { recordPayment, SoldMeanwhileError } from '../payments/record-payment';
import { StripePaymentProvider } from '../payments/stripe-provider';
import type { PayoutProvider } from '../payouts/payout-provider';
import { callerOf } from '../plugins/auth';
import { noteSeen } from '../repositories/trust';
import { seenFrom } from '../trust/devices';
import { contractRoutes } from './contract-routes';
import stripeWebhook from './stripe-webhook';

const cardErrorSchema = z.object({
  error: z.object({
    type: z.literal('card_error'),
    code: z.string(),
    decline_code: z.string().optional(),
    message: z.string(),
  }),
});

const unavailable = { 503: errorSchema };

/** `payouts`: Stripe's webhook also reports the sellers' Connect accounts. */
type Options = { sales: Sales; payouts: PayoutProvider };

export default contractRoutes<Options>(async (route, app, { sales, payouts }) => {
  const { provider } = sales;
  route(
    'createPaymentIntent',
    { limit: { perMinute: 30 }, responses: unavailable },
    async (request, reply) => {
      const { orderId, price } = request.body;
      const caller = callerOf(request);
      const order = await orderToPay(app.db, caller, orderId, price);
      // Where and on what the buyer paid: a sale to oneself (decision 038), a banned person (052).
      await noteSeen(app.db, caller.id, seenFrom(request, reply));
      const { clientSecret } = await provider.createIntent({
        orderId: order.id,
        amountCents: order.priceCents,
        email: order.email,
      });
      return { clientSecret };
    },
  );

  route('recordPayment', { responses: unavailable }, async (request) => {
    const order = await ownOrder(app.db, callerOf(request), request.body.orderId);
    return {
      insertedId: await recordPayment(sales, request.body.transactionId, order.id),
    };
  });

  if (provider instanceof EmbeddedPaymentProvider) {
    route(
      'confirmTestPayment',
      {
        // Per payment intent: guessing cards against one intent is what card testing looks like.
        limit: { perMinute: 10, by: (request) => request.body.clientSecret },
        responses: { 402: cardErrorSchema, 404: errorSchema },
      },
      async (request, reply) => {
        const result = await provider.confirm(request.body.clientSecret, request.body.card);
        if (!result) throw DomainError.notFound('No such payment intent');
        if ('type' in result) {
          sales.metrics?.payment('declined');
          return reply.code(402).send({ error: result });
        }
        if (result.status === 'requires_capture' || result.status === 'succeeded') {
          // Recorded here as well as by the client's call, so closing the browser loses nothing.
          await recordPayment(sales, result.id).catch((err) => {
            if (!(err instanceof SoldMeanwhileError)) throw err;
          });
        }
        const latest = (await provider.retrieve(result.id)) ?? result;
        return {
          paymentIntent: {
            id: latest.id,
            status: latest.status,
            amount: latest.amountCents,
            currency: latest.currency,
          },
        };
      },
    );
  }
  if (provider instanceof StripePaymentProvider) {
    await app.register(stripeWebhook, { sales, provider, payouts });
  }
});
