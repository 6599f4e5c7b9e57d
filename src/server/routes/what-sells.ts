/**
 * What sells (issue 35, decision 055): the signed-in seller's own figures, nobody else's. Views
 * are counted where the phone page and its data are served (views/count-view.ts), not here.
 */
import { callerOf } from '../plugins/auth';
import { whatSellsFor } from '../repositories/what-sells';
import { contractRoutes } from './contract-routes';

export default contractRoutes((route, app) => {
  route('whatSells', { limit: { perMinute: 60 } }, async (request) =>
    whatSellsFor(app.db, callerOf(request)),
  );
});
