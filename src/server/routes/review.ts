/**
 * The admin's review queue (issue 34): the queue, an action on a listing, an account or a report,
 * and the record of the actions. Admin calls alone (the contract's access).
 */
import { callerOf } from '../plugins/auth';
import { isAdminEmail } from '../repositories/users';
import { reviewQueue, reviewRecords, takeReviewAction } from '../risk/review';
import { contractRoutes, pageAnswer } from './contract-routes';

export default contractRoutes(async (route, app) => {
  route('reviewQueue', async () => reviewQueue(app.db));

  route('reviewAction', { limit: { perMinute: 120 } }, async (request) => {
    await takeReviewAction(
      {
        db: app.db,
        loose: app.loosePhotos,
        admin: callerOf(request),
        isAdmin: (email) => isAdminEmail(app.db, email, app.adminEmails),
      },
      { ...request.body, note: request.body.note ?? '' },
    );
    return { acknowledged: true };
  });

  route('reviewRecords', async (request, reply) =>
    pageAnswer(request, reply, await reviewRecords(app.db, request.query)),
  );
});
