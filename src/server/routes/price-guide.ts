/**
 * The fair-price guide (issue 19, decision 024): what phones like the one a seller lists sold for.
 * Sellers only; a few aggregate queries on indexed rows, limited per client like other reads that
 * cost more than a page. The price history (issue 33, decision 051) is public, as a phone's page
 * shows it: kept like the catalog's public answers, and limited as the guide is.
 */
import { priceGuideFor, priceHistoryFor } from '../repositories/price-guide';
import { sendPublic } from './catalog';
import { contractRoutes } from './contract-routes';

export default contractRoutes((route, app) => {
  route('priceGuide', { limit: { perMinute: 60 } }, async (request) =>
    priceGuideFor(app.db, request.query),
  );

  route('priceHistory', { limit: { perMinute: 60 } }, (request, reply) =>
    sendPublic(request, reply, async (db) => ({
      items: await priceHistoryFor(db, request.query),
      nextCursor: null,
    })),
  );
});
