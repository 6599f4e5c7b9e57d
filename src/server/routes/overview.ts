/**
 * The admin's Overview (issue 35, decision 056): figures by day and the busiest models of a
 * range, as JSON for the page and as a CSV file. Admin calls alone (the contract's access).
 */
import { isRangeProblem, readOverviewRange, utcDay } from '../../shared/overview';
import { DomainError } from '../domain/domain-error';
import { overview, overviewCsv } from '../repositories/overview';
import { contractRoutes } from './contract-routes';

export default contractRoutes(async (route, app) => {
  /** The range the query names (checked by its schema already; today is read once more). */
  const rangeOf = (query: { from?: string | undefined; to?: string | undefined }) => {
    const range = readOverviewRange(query, utcDay(new Date()));
    if (isRangeProblem(range)) throw DomainError.badRequest(range.message);
    return range;
  };

  route('overview', async (request) => overview(app.db, rangeOf(request.query)));

  route('overviewCsv', async (request, reply) => {
    const { from, to } = rangeOf(request.query);
    const table = request.query.table;
    const name = table === 'models' ? 'overview-models' : 'overview';
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}-${from}-to-${to}.csv"`)
      .send(overviewCsv(await overview(app.db, { from, to }), table));
  });
});
