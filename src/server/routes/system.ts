/** Health, the client's public configuration, and web-vitals reports. */
import { type ClientConfig, errorSchema } from '../../shared/api';
import { DATABASE_RETRY_AFTER_SECONDS } from '../db/unavailable';
import { contractRoutes } from './contract-routes';

/** How long health waits for a primary: haproxy's check gives it 2 s more (scripts/lib/balancer.ts). */
const HEALTH_PING_MS = 3000;

export default contractRoutes<{ clientConfig: ClientConfig }>((route, app, { clientConfig }) => {
  route('health', { responses: { 503: errorSchema } }, async (request, reply) => {
    // A stopping server leaves the balancer's rotation while it still answers what comes.
    // Answered, not thrown: an expected answer of a stopping server, not an error to log.
    if (app.draining) return reply.code(503).send({ message: 'Draining: this server is stopping' });
    // A primary must answer soon, on a connection of its own: a server that cannot write (the
    // database failing over) leaves the rotation; a busy pool does not take it out.
    const unreachable = await app.database.ping(HEALTH_PING_MS).then(
      () => null,
      (err: unknown) => err,
    );
    if (unreachable) {
      // Expected while PostgreSQL fails over (issue 32): a warning, not an error.
      request.log.warn({ err: unreachable }, 'health: no primary reached');
      return reply
        .code(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ message: 'Database unavailable' });
    }
    const counts = app.searchCounts;
    return {
      status: 'ok' as const,
      database: 'ok' as const,
      searchCounts: !counts
        ? ('off' as const)
        : counts.ready
          ? ('ready' as const)
          : ('reading' as const),
    };
  });

  route('config', async () => clientConfig);

  route('vitals', { limit: { perMinute: 600 }, status: 204 }, async (request, reply) => {
    request.log.info({ vital: request.body }, 'web vital');
    return reply.code(204).send(null);
  });
});
