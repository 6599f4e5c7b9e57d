/**
 * `POST /api/stripe/webhook`: Stripe tells us a payment succeeded, so it is recorded even when
 * the buyer's browser closed before its own record call. Only calls signed with our webhook
 * secret count; the signature covers the raw body, so this route keeps the bytes as they came.
 * Even a signed event is only a hint: the payment is recorded by `recordPayment`, which asks
 * Stripe for the intent by its id and checks it exactly as the buyer's own record call does.
 */
import { DomainError } from '../domain/domain-error';
import type { Sales } from '../domain/order-process';
import { PaymentRefusedError, recordPayment, SoldMeanwhileError } from '../payments/record-payment';
import type { StripePaymentProvider } from '../payments/stripe-provider';
import { contractRoutes } from './contract-routes';

export default contractRoutes<{ sales: Sales; provider: StripePaymentProvider }>(
  (route, app, { sales, provider }) => {
    // Encapsulated: only this route sees JSON as bytes.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );

    route('stripeWebhook', async (request) => {
      const signature = request.headers['stripe-signature'];
      const event = provider.eventFrom(
        request.body as Buffer,
        typeof signature === 'string' ? signature : undefined,
      );
      if (!event) throw DomainError.badRequest('stripe-signature: does not match the payload');
      if (event.type === 'payment_intent.succeeded') {
        const intentId = String(event.data.object.id);
        await recordPayment(sales, intentId).catch((err) => {
          // Stripe retries any other answer than 2xx for days, so an event that can never count is
          // acknowledged (200) and only logged: Stripe's own answer for this intent, just asked,
          // does not make it a payment of our order (unknown, not succeeded, or another amount,
          // order or buyer), and asking again would answer the same; an intent that succeeds
          // later comes with an event of its own. 400 stays for calls that are not Stripe's.
          // A Stripe or database failure still propagates (503/500), so Stripe tries again.
          if (err instanceof PaymentRefusedError) {
            request.log.warn({ intentId, reason: err.reason }, 'stripe webhook: intent ignored');
          } else if (err instanceof SoldMeanwhileError) {
            request.log.info({ intentId }, 'stripe webhook: phone sold meanwhile, refunded');
          } else throw err;
        });
      }
      return { received: true as const };
    });
  },
);
