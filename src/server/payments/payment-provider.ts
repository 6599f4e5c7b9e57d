/** The card payment provider: the embedded test-mode processor or Stripe, behind one interface. */
export type PaymentIntentStatus = 'requires_payment_method' | 'succeeded' | 'refunded';

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
};

export interface PaymentProvider {
  createIntent(input: {
    orderId: string;
    amountCents: number;
    email: string;
  }): Promise<{ id: string; clientSecret: string }>;
  retrieve(id: string): Promise<PaymentIntent | null>;
  /** Gives the whole amount back (a phone sold to someone else a moment earlier). */
  refund(id: string): Promise<void>;
}
