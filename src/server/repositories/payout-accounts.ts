/** Sellers' payout accounts as the processor reports them (issue 30). */
import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../db/client';
import { payoutAccounts } from '../db/schema';
import type { PayoutAccountStatus } from '../payouts/stripe-payouts';

/**
 * Sets the status of the seller's Stripe account `accountId` as Stripe now reports it; answers
 * whether it changed (false for an account that is no seller's, or already in that status).
 */
export async function setStripeAccountStatus(
  db: Db,
  accountId: string,
  status: PayoutAccountStatus,
): Promise<boolean> {
  const rows = await db
    .update(payoutAccounts)
    .set({ status, updatedAt: new Date() })
    .where(
      and(
        eq(payoutAccounts.externalId, accountId),
        eq(payoutAccounts.kind, 'stripe'),
        ne(payoutAccounts.status, status),
      ),
    )
    .returning({ sellerId: payoutAccounts.sellerId });
  return rows.length > 0;
}
