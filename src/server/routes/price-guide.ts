/**
 * The fair-price guide (issue 19, decision 024): what phones like the one a seller lists sold for.
 * Sellers only; a few aggregate queries on indexed rows, limited per client like other reads that
 * cost more than a page.
 */
import { priceGuideFor } from '../repositories/price-guide';
import { contractRoutes } from './contract-routes';

export default contractRoutes((route, app) => {
  route('priceGuide', { limit: { perMinute: 60 } }, async (request) =>
    priceGuideFor(app.db, request.query),
  );
});
