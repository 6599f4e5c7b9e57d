/**
 * The ledger's accounts and kinds of transaction (issue 30, decision 041). An account is a name;
 * its balance is the sum of its entries. Money enters from `cards` (which goes negative by what
 * buyers paid) and leaves to a seller's `paid` account or back to `cards`; every transaction sums
 * to zero, so the sum over all accounts is always zero.
 *
 *   pay       cards -> holds                     the buyer's card authorised
 *   release   holds -> cards                     a cancel or an expiry lets the hold go
 *   capture   holds -> fees + seller pending     the handover
 *   available seller pending -> seller available the funds hold ended with no report
 *   freeze    seller pending|available -> seller frozen    a report
 *   unfreeze  seller frozen -> seller available  the admin closed the report
 *   refund    seller (where the share is) + fees -> cards  the admin refunded the buyer
 *   payout    seller available -> payouts:sending
 *   payout-paid    payouts:sending -> seller paid
 *   payout-failed  payouts:sending -> seller available
 *   reversal  seller paid -> seller available    a Stripe transfer reversed after a refund
 */
export const LEDGER_KINDS = [
  'hold',
  'release',
  'capture',
  'available',
  'freeze',
  'unfreeze',
  'refund',
  'payout',
  'payout-paid',
  'payout-failed',
  'reversal',
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export const SELLER_BUCKETS = ['pending', 'frozen', 'available', 'paid'] as const;
export type SellerBucket = (typeof SELLER_BUCKETS)[number];

export const ACCOUNTS = {
  /** Buyers' cards: negative by what the marketplace holds, captured and did not give back. */
  cards: 'cards',
  /** Authorised on buyers' cards, not yet captured. */
  holds: 'holds',
  /** The marketplace's fees earned. */
  fees: 'fees',
  /** Payouts on their way to sellers' accounts. */
  sending: 'payouts:sending',
  seller: (sellerId: string, bucket: SellerBucket) => `seller:${sellerId}:${bucket}`,
} as const;

/** The seller and bucket of a seller account's name, or null for another account. */
export function sellerAccountOf(
  account: string,
): { sellerId: string; bucket: SellerBucket } | null {
  const match = /^seller:([0-9a-f-]{36}):(pending|frozen|available|paid)$/.exec(account);
  return match ? { sellerId: match[1] as string, bucket: match[2] as SellerBucket } : null;
}
