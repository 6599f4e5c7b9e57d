/**
 * The sale after booking (not in the spec): one sale as its buyer, seller or an admin sees it;
 * the handover, a cancel, a reported problem and its decision, and ratings. Every change is a
 * transition of the order process module; the routes only name who is asking.
 */
import { DomainError } from '../domain/domain-error';
import {
  cancelSale,
  handOver,
  orderSeenBy,
  rate,
  reportProblem,
  resolveDispute,
  type Sales,
} from '../domain/order-process';
import { callerOf } from '../plugins/auth';
import { readFor } from '../plugins/read-routing';
import { listBookings, listDisputes, listSales, saleView } from '../repositories/sales';
import { contractRoutes, pageAnswer } from './contract-routes';

export default contractRoutes<{ sales: Sales }>((route, app, { sales }) => {
  const ack = { acknowledged: true };

  // A person's own list: the replica once it has their writes (decision 048).
  route('myBookings', async (request) =>
    readFor(request, (db) => listBookings(db, callerOf(request).id)),
  );

  route('sale', async (request) => {
    const { order, side } = await orderSeenBy(app.db, callerOf(request), request.params.id);
    const sale = await saleView(app.db, order.id, side);
    if (!sale) throw DomainError.notFound('No such order');
    return sale;
  });

  route('cancelSale', { limit: { perMinute: 30 } }, async (request) => {
    await cancelSale(sales, callerOf(request), request.params.id);
    return ack;
  });

  route(
    'handOver',
    // Per caller and sale, counted after the seller guard: another seller's tries cannot use up
    // this seller's, and the order itself counts wrong codes for everyone (decision 022).
    {
      limit: {
        perMinute: 10,
        by: (request) => `${request.caller?.id}:${request.params.id.toLowerCase()}`,
      },
    },
    async (request) => {
      await handOver(sales, callerOf(request), request.params.id, request.body.code);
      return ack;
    },
  );

  route('reportProblem', { limit: { perMinute: 10 } }, async (request) => {
    await reportProblem(app.db, callerOf(request), request.params.id, request.body.reason);
    return ack;
  });

  route('rateSale', { limit: { perMinute: 30 } }, async (request) => {
    await rate(app.db, callerOf(request), request.params.id, request.body);
    return ack;
  });

  route('mySales', async (request, reply) =>
    pageAnswer(request, reply, await listSales(app.db, callerOf(request).id, request.query)),
  );

  route('listDisputes', async (request, reply) =>
    pageAnswer(request, reply, await listDisputes(app.db, request.query)),
  );

  route('resolveDispute', async (request) => {
    await resolveDispute(sales, callerOf(request), request.params.id, request.body.decision);
    return ack;
  });
});
