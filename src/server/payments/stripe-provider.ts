/**
 * Stripe in test mode: PaymentIntents carry the order in their metadata; the browser confirms
 * them with Stripe Elements, and Stripe's webhook tells us when one succeeded. Card numbers
 * never reach our server.
 */
import Stripe from 'stripe';
import { ServiceUnavailableError } from '../domain/domain-error';
import type { PaymentIntent, PaymentIntentStatus, PaymentProvider } from './payment-provider';

export type StripeSettings = {
  secretKey: string;
  webhookSecret: string;
  /** Where Stripe's API answers; tests point it at a local double. */
  apiUrl: string;
};

const INTENT_ID = /^pi_[A-Za-z0-9]{1,100}$/;
const UNAVAILABLE = 'The card service is not answering; please try again in a moment.';

/** Our view of a Stripe intent: held, captured, cancelled or refunded, else not paid. */
function statusOf(status: Stripe.PaymentIntent.Status, refunded: boolean): PaymentIntentStatus {
  if (status === 'succeeded') return refunded ? 'refunded' : 'succeeded';
  if (status === 'requires_capture' || status === 'canceled') return status as PaymentIntentStatus;
  return 'requires_payment_method';
}

export class StripePaymentProvider implements PaymentProvider {
  private readonly stripe: Stripe;

  constructor(private readonly settings: StripeSettings) {
    const url = new URL(settings.apiUrl);
    this.stripe = new Stripe(settings.secretKey, {
      host: url.hostname,
      port: url.port || (url.protocol === 'http:' ? 80 : 443),
      protocol: url.protocol === 'http:' ? 'http' : 'https',
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
    });
  }

  async createIntent(input: { orderId: string; amountCents: number; email: string }) {
    const intent = await this.call(() =>
      this.stripe.paymentIntents.create({
        amount: input.amountCents,
        currency: 'usd',
        // The card is authorised at payment and captured at the handover (or the hold cancelled).
        capture_method: 'manual',
        allowed_payment_method_types: ['card'],
        receipt_email: input.email,
        // Metadata can be changed only with our secret key; receipt_email also by Stripe.js.
        metadata: { orderId: input.orderId, buyerEmail: input.email },
      }),
    );
    if (!intent.client_secret) throw new ServiceUnavailableError(UNAVAILABLE);
    return { id: intent.id, clientSecret: intent.client_secret };
  }

  async retrieve(id: string): Promise<PaymentIntent | null> {
    if (!INTENT_ID.test(id)) return null;
    const intent = await this.call(() =>
      this.stripe.paymentIntents.retrieve(id, { expand: ['latest_charge'] }),
    ).catch((err) => {
      if (err instanceof Stripe.errors.StripeInvalidRequestError && err.code === 'resource_missing')
        return null;
      throw err;
    });
    const orderId = intent?.metadata.orderId;
    if (!intent || !orderId) return null;
    const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
    const refunded = (charge?.amount_refunded ?? 0) > 0;
    return {
      id: intent.id,
      orderId,
      amountCents: intent.amount,
      currency: intent.currency,
      status: statusOf(intent.status, refunded),
      // Intents made before the buyer went into the metadata carry it only as the receipt's address.
      buyerEmail: intent.metadata.buyerEmail ?? intent.receipt_email ?? null,
    };
  }

  async capture(id: string) {
    await this.call(() =>
      this.stripe.paymentIntents.capture(id, {}, { idempotencyKey: `capture-${id}` }),
    ).catch((err) => this.doneAlready(err, id, 'succeeded'));
  }

  async cancel(id: string) {
    await this.call(() =>
      this.stripe.paymentIntents.cancel(id, {}, { idempotencyKey: `cancel-${id}` }),
    ).catch((err) => this.doneAlready(err, id, 'canceled'));
  }

  async refund(id: string) {
    await this.call(() =>
      // The key makes a second refund for the same intent (a retried step) a no-op.
      this.stripe.refunds.create({ payment_intent: id }, { idempotencyKey: `refund-${id}` }),
    ).catch((err) => {
      if (
        err instanceof Stripe.errors.StripeInvalidRequestError &&
        err.code === 'charge_already_refunded'
      )
        return;
      throw err;
    });
  }

  /**
   * Stripe refuses a step on an intent no longer in the state it needs
   * (`payment_intent_unexpected_state`): that is done when the intent is where the step leads.
   */
  private async doneAlready(err: unknown, id: string, target: PaymentIntentStatus) {
    if (
      err instanceof Stripe.errors.StripeInvalidRequestError &&
      err.code === 'payment_intent_unexpected_state' &&
      (await this.retrieve(id))?.status === target
    )
      return;
    throw err;
  }

  /** The event in a webhook call, or null when its signature is not Stripe's for our secret. */
  eventFrom(payload: Buffer, signature: string | undefined): Stripe.Event | null {
    if (!signature) return null;
    try {
      return this.stripe.webhooks.constructEvent(payload, signature, this.settings.webhookSecret);
    } catch {
      return null;
    }
  }

  /** Stripe's answers pass through; a card service that is down or refuses our key is a 503. */
  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (err) {
      if (
        err instanceof Stripe.errors.StripeConnectionError ||
        err instanceof Stripe.errors.StripeAPIError ||
        err instanceof Stripe.errors.StripeAuthenticationError ||
        err instanceof Stripe.errors.StripeRateLimitError
      ) {
        throw new ServiceUnavailableError(UNAVAILABLE, { cause: err });
      }
      throw err;
    }
  }
}
