/**
 * Where sellers' money goes (issue 30): the embedded test bank (no money moves; Stripe's
 * documented test bank numbers decide the outcome) or Stripe Connect (a transfer of each sale's
 * share to the seller's Express account). Every call is idempotent by its key: asking again after
 * a crash gets the first answer, never a second transfer.
 */
export type PayoutSale = {
  orderId: string;
  netCents: number;
  /** The buyer's payment at the provider (Stripe: the payment intent), for `source_transaction`. */
  transactionId: string;
};

export type PayoutResult =
  | {
      ok: true;
      /** The processor's id of the payout (the test bank's `po_...`, Stripe's first transfer). */
      ref: string;
      /** Stripe: the transfer that carried each sale's share. */
      transfers?: { orderId: string; transferId: string }[];
    }
  /** Refused (the account closed, no such account...): the money goes back to the balance. */
  | { ok: false; reason: string };

export interface PayoutProvider {
  readonly kind: 'embedded' | 'stripe';
  /** Sends `amountCents` to `destination`; the same `key` again answers as the first time. */
  send(input: {
    payoutId: string;
    destination: string;
    amountCents: number;
    key: string;
    sales: PayoutSale[];
  }): Promise<PayoutResult>;
  /**
   * Takes back what a transfer carried (a sale refunded after its payout). Stripe reverses the
   * transfer; the test bank cannot take money back, so it is absent there and the seller's
   * balance stays negative until their next sales cover it.
   */
  reverse?(input: { transferId: string; amountCents: number; key: string }): Promise<void>;
  /**
   * Stripe Connect: opens the seller's Express account (or keeps `existing`) and answers the link
   * to its onboarding. Absent for the test bank, whose accounts are numbers typed in.
   */
  onboard?(input: {
    sellerId: string;
    email: string;
    existing: string | null;
    returnUrl: string;
    refreshUrl: string;
  }): Promise<{ accountId: string; url: string }>;
  /** Stripe Connect: the account's status as Stripe answers it now (null: no such account). */
  accountStatus?(accountId: string): Promise<'active' | 'pending' | 'restricted' | null>;
}
