/**
 * `POST /api/stripe/webhook`: Stripe tells us what happened to a PaymentIntent, so a payment is
 * recorded even when the buyer's browser closed before its own record call, and a hold Stripe
 * let go by itself ends its sale. Only calls signed with our webhook secret count; the signature
 * covers the raw body, so this route keeps the bytes as they came.
 *
 * Even a signed event is only a hint: what counts is Stripe's own answer when we ask it for the
 * intent by its id, never the event's body. So an event that arrives late, twice, out of order or
 * for a step we took ourselves changes nothing that Stripe's answer does not call for, and no
 * event moves money: money moves only by the order process's own steps.
 *
 * - `payment_intent.amount_capturable_updated` (the card is authorised, the money held) and
 *   `payment_intent.succeeded` (captured: by our handover, or at once for an intent made before
 *   holds): `recordPayment`, which checks the intent exactly as the buyer's own record call does
 *   and records it once; for a payment recorded already it changes nothing.
 * - `payment_intent.canceled` (and `charge.refunded`, which API versions before 2025-03-31 also
 *   send when a hold is let go): if Stripe says the intent is cancelled while our sale still
 *   holds its money (the authorisation ran out, or someone cancelled it in Stripe's dashboard),
 *   the sale can no longer complete, so it expires now: the phone is for sale again and the money
 *   is `released` (Stripe answers our cancel with "cancelled already"). After our own cancel or
 *   expiry the payment is no longer `held`, so nothing happens.
 * - `charge.refunded` for a captured payment: refunds are the admin's decision on a reported
 *   problem; a refund made in Stripe's dashboard is logged for the operator and changes nothing.
 *
 * - `account.updated` (a seller's Connect account, issue 30): Stripe's answer for the account,
 *   asked again by its id, sets the seller's payout account status (active, pending, restricted);
 *   an account that is no seller's changes nothing.
 *
 * Stripe retries any other answer than 2xx for days, so an event that can never count is
 * acknowledged (200) and logged; 400 stays for calls that are not Stripe's. A Stripe or database
 * failure still propagates (503/500), so Stripe tries again.
 */
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { payments } from '../db/schema';
import { DomainError } from '../domain/domain-error';
import { expireCancelledHold, type Sales } from '../domain/order-process';
import { PaymentRefusedError, recordPayment, SoldMeanwhileError } from '../payments/record-payment';
import type { StripePaymentProvider } from '../payments/stripe-provider';
import type { PayoutProvider } from '../payouts/payout-provider';
import { StripePayoutProvider } from '../payouts/stripe-payouts';
import { setStripeAccountStatus } from '../repositories/payout-accounts';
import { contractRoutes } from './contract-routes';

/** The Connect account an `account.updated` event is about, as its body names it. */
function accountIdOf(event: Stripe.Event): string | null {
  const data: unknown = (event as { data?: unknown }).data;
  const object = (data && typeof data === 'object' && 'object' in data ? data.object : null) as {
    object?: string;
    id?: unknown;
  } | null;
  if (!object || typeof object !== 'object' || object.object !== 'account') return null;
  return typeof object.id === 'string' ? object.id : null;
}

/**
 * The intent an event is about, as its body names it (only to ask Stripe about). A signed body
 * is still any JSON (a string, an object without `data`): null unless it has the shape.
 */
function intentIdOf(event: Stripe.Event): string | null {
  const data: unknown = (event as { data?: unknown }).data;
  const object = (data && typeof data === 'object' && 'object' in data ? data.object : null) as {
    object?: string;
    id?: unknown;
    payment_intent?: unknown;
  } | null;
  if (!object || typeof object !== 'object') return null;
  const id = object.object === 'charge' ? object.payment_intent : object.id;
  if (typeof id === 'string') return id;
  // An expanded intent on a charge.
  if (id && typeof id === 'object' && 'id' in id && typeof id.id === 'string') return id.id;
  return null;
}

type Options = { sales: Sales; provider: StripePaymentProvider; payouts: PayoutProvider };

export default contractRoutes<Options>((route, app, { sales, provider, payouts }) => {
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
    const intentId = intentIdOf(event);
    const log = request.log.child({ event: event.id, type: event.type, intentId });

    const accountId = event.type === 'account.updated' ? accountIdOf(event) : null;
    if (accountId && payouts instanceof StripePayoutProvider) {
      const status = await payouts.accountStatus(accountId);
      const changed = status && (await setStripeAccountStatus(sales.db, accountId, status));
      log.info({ accountId, status, changed }, 'stripe webhook: connected account');
    } else if (
      intentId &&
      (event.type === 'payment_intent.amount_capturable_updated' ||
        event.type === 'payment_intent.succeeded')
    ) {
      await recordPayment(sales, intentId).catch((err) => {
        // Stripe's own answer for this intent, just asked, does not make it a payment of our
        // order (unknown, not authorised, cancelled, or another amount, order or buyer), and
        // asking again would answer the same; an intent authorised later comes with an event
        // of its own.
        if (err instanceof PaymentRefusedError) {
          log.warn({ reason: err.reason }, 'stripe webhook: intent ignored');
        } else if (err instanceof SoldMeanwhileError) {
          log.info('stripe webhook: phone sold meanwhile, hold released');
        } else throw err;
      });
    } else if (
      intentId &&
      (event.type === 'payment_intent.canceled' || event.type === 'charge.refunded')
    ) {
      const intent = await provider.retrieve(intentId);
      if (intent?.status === 'canceled') {
        if (await expireCancelledHold(sales, intent.id))
          log.warn('stripe webhook: Stripe cancelled the hold of a paid sale; the sale expired');
        else log.info('stripe webhook: intent cancelled; no sale holds its money');
      } else if (intent?.status === 'refunded') {
        const [payment] = await sales.db
          .select({ money: payments.money })
          .from(payments)
          .where(eq(payments.transactionId, intent.id));
        if (payment?.money === 'captured')
          log.warn(
            'stripe webhook: refunded in Stripe outside a dispute decision; the sale is unchanged',
          );
        else log.info({ money: payment?.money }, 'stripe webhook: refund acknowledged');
      } else {
        log.info({ status: intent?.status }, 'stripe webhook: Stripe does not confirm the event');
      }
    }
    return { received: true as const };
  });
});
