/**
 * The card payment provider: the embedded test-mode processor or Stripe, behind one interface.
 * A payment is authorised first (the money is held on the buyer's card), then captured for the
 * seller at the handover, or the hold is cancelled; a captured amount can be refunded. Every
 * call is idempotent: asking twice for the same step does it once, so a step a crash
 * interrupted can simply be asked again.
 */
export type PaymentIntentStatus =
  /** Not paid (yet). */
  | 'requires_payment_method'
  /** Authorised: the money is held on the card until it is captured or cancelled. */
  | 'requires_capture'
  /** Captured: the money is ours to pay out. */
  | 'succeeded'
  /** The hold was cancelled: no money moved. */
  | 'canceled'
  /** Captured, then given back. */
  | 'refunded';

export type PaymentIntent = {
  id: string;
  orderId: string;
  amountCents: number;
  currency: string;
  status: PaymentIntentStatus;
  /**
   * Whom the intent was made for (the order's e-mail), as the provider keeps it: out of reach of
   * the buyer's browser, which holds the client secret. Null when the provider has none.
   */
  buyerEmail: string | null;
  /**
   * The card's fingerprint: one card, one fingerprint, the number never told (Stripe's
   * `card.fingerprint`; the embedded processor's keyed hash). Null before a card paid.
   */
  cardFingerprint: string | null;
};

export interface PaymentProvider {
  /** An intent for the order's amount, to be authorised by the buyer and captured later. */
  createIntent(input: {
    orderId: string;
    amountCents: number;
    email: string;
  }): Promise<{ id: string; clientSecret: string }>;
  retrieve(id: string): Promise<PaymentIntent | null>;
  /** Takes the held money (the handover); a captured intent answers as done. */
  capture(id: string): Promise<void>;
  /** Lets the hold go (a cancel, an expiry, a phone sold meanwhile); a cancelled one is done. */
  cancel(id: string): Promise<void>;
  /** Gives a captured amount back (a dispute decided for the buyer); a refunded one is done. */
  refund(id: string): Promise<void>;
}
