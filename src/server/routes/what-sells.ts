/**
 * Views of phones' pages and what sells (issue 35, decision 055). A view answers 204 at once,
 * counted or not, and reads and writes nothing: the counter buffers it and writes batches. It
 * has no rate limit (one counted in the shared store would be a database write per view, which
 * batching avoids; the pages themselves have none), and is a quiet write: the public answers
 * stay, no mail or saved-search round is kicked; a flood costs the bounded buffer, never memory. What sells is
 * the signed-in seller's own figures, nobody else's.
 */
import { callerOf } from '../plugins/auth';
import { whatSellsFor } from '../repositories/what-sells';
import { countsAsPerson } from '../views/view-counter';
import { contractRoutes } from './contract-routes';

export default contractRoutes((route, app) => {
  route('recordView', { status: 204, quietWrite: true }, async (request, reply) => {
    const userAgent = request.headers['user-agent'];
    if (countsAsPerson(userAgent)) {
      const day = new Date().toISOString().slice(0, 10);
      // A signed-in person sends their token: a signature to check, no database read.
      const token = /^bearer\s+(\S+)$/i.exec(request.headers.authorization?.trim() ?? '')?.[1];
      const subject = token ? await app.accessTokens.verify(token) : undefined;
      const accountId = subject && 'userId' in subject ? subject.userId : null;
      app.views.record({
        productId: request.params.id,
        day,
        viewer: app.fingerprints.viewer(
          day,
          accountId ? { account: accountId } : { ip: request.ip, userAgent: userAgent ?? '' },
        ),
        accountId,
      });
    }
    return reply.code(204).send(null);
  });

  route('whatSells', { limit: { perMinute: 60 } }, async (request) =>
    whatSellsFor(app.db, callerOf(request)),
  );
});
