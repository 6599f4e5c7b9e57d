/**
 * Reports of a listing or a seller (issue 34, decision 053): made by any signed-in person, once
 * per subject, at most REPORTS_PER_DAY a day; each person reads their own.
 */
import { callerOf } from '../plugins/auth';
import { myReports, reportListing, reportSeller } from '../repositories/reports';
import { findUserById } from '../repositories/users';
import { assessAccount, assessReportedListing } from '../risk/assess';
import { contractRoutes } from './contract-routes';

/** Against a burst; the daily allowance is counted on the reports themselves. */
const WRITES = { limit: { perMinute: 10 } };

export default contractRoutes((route, app) => {
  route('reportListing', WRITES, async (request) => {
    await reportListing(app.db, callerOf(request), request.params.id, request.body);
    // Many people reporting it is a risk signal (issue 34): its rules run again.
    await assessReportedListing(app.db, request.params.id);
    return { acknowledged: true };
  });

  route('reportSeller', WRITES, async (request) => {
    await reportSeller(app.db, callerOf(request), request.params.id, request.body);
    const seller = await findUserById(app.db, request.params.id);
    if (seller) await assessAccount(app.db, seller);
    return { acknowledged: true };
  });

  route('myReports', async (request) => myReports(app.db, callerOf(request).id));
});
