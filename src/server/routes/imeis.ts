/**
 * Blocked IMEIs (issue 19, decision 024): the admin's list of IMEIs reported stolen. Blocking one
 * withdraws its listings for sale; lifting a block relists nothing.
 */

import { DomainError } from '../domain/domain-error';
import { blockImei } from '../domain/order-process';
import { callerOf } from '../plugins/auth';
import { deleteBlockedImei, listBlockedImeis } from '../repositories/imeis';
import { contractRoutes, pageAnswer } from './contract-routes';

export default contractRoutes((route, app) => {
  route('listBlockedImeis', async (request, reply) =>
    pageAnswer(request, reply, await listBlockedImeis(app.db, request.query)),
  );

  route('blockImei', async (request) => {
    const { imei, reason } = request.body;
    const { withdrawnCount } = await blockImei(
      app.db,
      app.imeiVault,
      callerOf(request),
      imei,
      reason,
    );
    return { acknowledged: true, withdrawnCount };
  });

  route('unblockImei', async (request) => {
    if (!(await deleteBlockedImei(app.db, request.params.id)))
      throw DomainError.notFound('This IMEI is not blocked');
    return { deletedCount: 1 };
  });
});
