/**
 * Sellers' money and the admin's figures (issue 30): the seller's balances and payouts, their
 * payout account (the password asked again), and the admin's Finance page with its CSV.
 */
import type { PayoutAccounts } from '../payouts/payout-accounts';
import { setBankAccount, startStripeOnboarding } from '../payouts/payout-accounts';
import { callerOf } from '../plugins/auth';
import { finance, financeCsv, payoutSummary } from '../repositories/payouts';
import { contractRoutes } from './contract-routes';

export default contractRoutes<{ accounts: PayoutAccounts; schedule: string; siteUrl: string }>(
  (route, app, { accounts, schedule, siteUrl }) => {
    route('myPayouts', async (request) => payoutSummary(app.db, callerOf(request).id, schedule));

    // The password is asked again: a few tries a minute, then a wait (a stolen session cannot
    // guess its way to the seller's money).
    route('setPayoutAccount', { limit: { perMinute: 5 } }, async (request) =>
      setBankAccount(accounts, callerOf(request), request.body),
    );

    route('payoutOnboarding', { limit: { perMinute: 5 } }, async (request) =>
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
