/**
 * Sellers' money and the admin's figures (issue 30): the seller's balances and payouts, their
 * payout account (the password asked again), and the admin's Finance page with its CSV.
 */
import { eq } from 'drizzle-orm';
import { payoutAccounts } from '../db/schema';
import type { PayoutAccounts } from '../payouts/payout-accounts';
import { setBankAccount, startStripeOnboarding } from '../payouts/payout-accounts';
import { callerOf } from '../plugins/auth';
import { setStripeAccountStatus } from '../repositories/payout-accounts';
import { finance, financeCsv, payoutSummary } from '../repositories/payouts';
import { contractRoutes } from './contract-routes';

export default contractRoutes<{ accounts: PayoutAccounts; schedule: string; siteUrl: string }>(
  (route, app, { accounts, schedule, siteUrl }) => {
    /**
     * A seller back from Stripe's onboarding with an account still pending asks Stripe itself:
     * its account.updated event may have come before the account was ours, or not yet at all.
     */
    const catchUpWithStripe = async (sellerId: string) => {
      const { accountStatus } = accounts.provider;
      if (!accountStatus) return;
      const [account] = await app.db
        .select()
        .from(payoutAccounts)
        .where(eq(payoutAccounts.sellerId, sellerId));
      if (account?.kind !== 'stripe' || account.status !== 'pending') return;
      const status = await accountStatus
        .call(accounts.provider, account.externalId)
        .catch(() => null);
      if (status) await setStripeAccountStatus(app.db, account.externalId, status);
    };

    route('myPayouts', async (request) => {
      const caller = callerOf(request);
      await catchUpWithStripe(caller.id);
      return payoutSummary(app.db, caller.id, schedule);
    });

    // The password is asked again: five tries in 15 minutes per account (payout-accounts.ts),
    // and the route's own limit against floods.
    route('setPayoutAccount', { limit: { perMinute: 10 } }, async (request) =>
      setBankAccount(accounts, callerOf(request), request.body),
    );

    route('payoutOnboarding', { limit: { perMinute: 10 } }, async (request) =>
      startStripeOnboarding(accounts, callerOf(request), request.body.password, siteUrl),
    );

    route('finance', async (request) => finance(app.db, request.query.days));

    route('financeCsv', async (request, reply) => {
      const report = await finance(app.db, request.query.days);
      return reply
        .type('text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="finance-${report.from}-to-${report.to}.csv"`,
        )
        .send(financeCsv(report));
    });
  },
);
