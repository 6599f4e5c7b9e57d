/**
 * Stripe in test mode: PaymentIntents carry the order in their metadata and are made with manual
 * capture; the browser confirms them with Stripe Elements (the card is authorised, the money
 * held), the handover captures them, a cancel or an expiry cancels them, a dispute decided for
 * the buyer refunds them. Stripe's webhook tells us when one was authorised. Card numbers never
 * reach our server.
 */
import Stripe from 'stripe';
import { ServiceUnavailableError } from '../domain/domain-error';
import type { PaymentIntent, PaymentIntentStatus, PaymentProvider } from './payment-provider';

export type StripeSettings = {
  secretKey: string;
  webhookSecret: string;
  /** The secret of the endpoint for connected accounts' events, when it is another one. */
  connectWebhookSecret?: string | undefined;
  /** Where Stripe's API answers; tests point it at a local double. */
  apiUrl: string;
};

/** Stripe's SDK on `apiUrl`, retrying a lost answer twice (with the call's idempotency key). */
/**
 * Asks Stripe: its answers (refusals included) pass through; Stripe down, slow, rate-limiting or
 * refusing our key is no answer, a 503 with `unavailable` as its message.
 */
export async function askStripe<T>(request: () => Promise<T>, unavailable: string): Promise<T> {
  try {
    return await request();
  } catch (err) {
    if (
      err instanceof Stripe.errors.StripeConnectionError ||
      err instanceof Stripe.errors.StripeAPIError ||
      err instanceof Stripe.errors.StripeAuthenticationError ||
      err instanceof Stripe.errors.StripeRateLimitError
    ) {
      throw new ServiceUnavailableError(unavailable, { cause: err });
    }
    throw err;
  }
}

export function stripeClientOf(settings: Pick<StripeSettings, 'secretKey' | 'apiUrl'>): Stripe {
  const url = new URL(settings.apiUrl);
  return new Stripe(settings.secretKey, {
    host: url.hostname,
    port: url.port || (url.protocol === 'http:' ? 80 : 443),
    protocol: url.protocol === 'http:' ? 'http' : 'https',
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
  });
}

const INTENT_ID = /^pi_[A-Za-z0-9]{1,100}$/;
const UNAVAILABLE = 'The card service is not answering; please try again in a moment.';

const chargeOf = (intent: Stripe.PaymentIntent) =>
  typeof intent.latest_charge === 'object' ? intent.latest_charge : null;

/** Our view of a Stripe intent: held, captured, cancelled or refunded, else not paid. */
function statusOf(status: Stripe.PaymentIntent.Status, refunded: boolean): PaymentIntentStatus {
  if (status === 'succeeded') return refunded ? 'refunded' : 'succeeded';
  if (status === 'requires_capture' || status === 'canceled') return status as PaymentIntentStatus;
  return 'requires_payment_method';
}

export class StripePaymentProvider implements PaymentProvider {
  private readonly stripe: Stripe;

  constructor(private readonly settings: StripeSettings) {
    this.stripe = stripeClientOf(settings);
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
    const intent = await this.intentOf(id);
    const orderId = intent?.metadata.orderId;
    if (!intent || !orderId) return null;
    return {
      id: intent.id,
      orderId,
      amountCents: intent.amount,
      currency: intent.currency,
      status: statusOf(intent.status, (chargeOf(intent)?.amount_refunded ?? 0) > 0),
      // Intents made before the buyer went into the metadata carry it only as the receipt's address.
      buyerEmail: intent.metadata.buyerEmail ?? intent.receipt_email ?? null,
      cardFingerprint: chargeOf(intent)?.payment_method_details?.card?.fingerprint ?? null,
    };
  }

  /**
   * Each money step is asked with a key of its own per intent, so a retry (the SDK's, or the
   * timed work's after a crash) gets Stripe's first answer again instead of a second step. When a
   * step fails, Stripe's own view of the intent decides whether it is done all the same: the
   * answer of a step Stripe did may have been lost on the way (a 5xx, a cut connection), and a
   * step on an intent already where it leads is refused (`payment_intent_unexpected_state`).
   */
  async capture(id: string) {
    await this.call(() =>
      this.stripe.paymentIntents.capture(id, {}, { idempotencyKey: `capture-${id}` }),
    ).catch(async (err) => {
      const intent = await this.intentAfter(err, id);
      // Captured: done, even if someone refunded it since.
      if (intent?.status === 'succeeded') return;
      if (intent?.status === 'canceled')
        throw new Error(
          `payment intent ${id} cannot be captured: Stripe cancelled its hold (${intent.cancellation_reason ?? 'no reason given'})`,
          { cause: err },
        );
      throw err;
    });
  }

  async cancel(id: string) {
    await this.call(() =>
      this.stripe.paymentIntents.cancel(id, {}, { idempotencyKey: `cancel-${id}` }),
    ).catch(async (err) => {
      const intent = await this.intentAfter(err, id);
      if (intent?.status === 'canceled') return;
      // Captured outside our steps (Stripe's dashboard): the buyer's money goes back as a refund.
      if (intent?.status === 'succeeded') return this.refund(id);
      throw err;
    });
  }

  async refund(id: string) {
    await this.call(() =>
      // The key makes a second refund for the same intent (a retried step) a no-op.
      this.stripe.refunds.create({ payment_intent: id }, { idempotencyKey: `refund-${id}` }),
    ).catch(async (err) => {
      if (
        err instanceof Stripe.errors.StripeInvalidRequestError &&
        err.code === 'charge_already_refunded'
      )
        return;
      const intent = await this.intentAfter(err, id);
      if (intent && chargeOf(intent)?.refunded) return;
      throw err;
    });
  }

  /** The intent with its charge, as Stripe has it; null when Stripe does not know it. */
  private async intentOf(id: string, options: Stripe.RequestOptions = {}) {
    if (!INTENT_ID.test(id)) return null;
    return this.call(() =>
      this.stripe.paymentIntents.retrieve(id, { expand: ['latest_charge'] }, options),
    ).catch((err) => {
      if (err instanceof Stripe.errors.StripeInvalidRequestError && err.code === 'resource_missing')
        return null;
      throw err;
    });
  }

  /**
   * The intent after a step failed with `err`, when the failure leaves open whether the step is
   * done (an unexpected state, a 5xx, no answer); null otherwise, or when Stripe cannot say now.
   */
  private async intentAfter(err: unknown, id: string) {
    const unexpected =
      err instanceof Stripe.errors.StripeInvalidRequestError &&
      err.code === 'payment_intent_unexpected_state';
    if (!unexpected && !(err instanceof ServiceUnavailableError)) return null;
    // One try: the step's own error is the answer when Stripe is still not answering.
    return this.intentOf(id, { maxNetworkRetries: 0 }).catch(() => null);
  }

  /** The event in a webhook call, or null when its signature is not Stripe's for our secrets. */
  eventFrom(payload: Buffer, signature: string | undefined): Stripe.Event | null {
    if (!signature) return null;
    const { webhookSecret, connectWebhookSecret } = this.settings;
    for (const secret of [webhookSecret, connectWebhookSecret]) {
      if (!secret) continue;
      try {
        return this.stripe.webhooks.constructEvent(payload, signature, secret);
      } catch {}
    }
    return null;
  }

  /** Stripe's answers pass through; a card service that is down or refuses our key is a 503. */
  private call<T>(request: () => Promise<T>): Promise<T> {
    return askStripe(request, UNAVAILABLE);
  }
}
