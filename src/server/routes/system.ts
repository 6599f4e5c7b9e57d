/** Health, the client's public configuration, and web-vitals reports. */
import { type ClientConfig, errorSchema } from '../../shared/api';
import { ServiceUnavailableError } from '../domain/domain-error';
import { pingDatabase } from '../repositories/health';
import { contractRoutes } from './contract-routes';

export default contractRoutes<{ clientConfig: ClientConfig }>((route, app, { clientConfig }) => {
  route('health', { responses: { 503: errorSchema } }, async (_request, reply) => {
    // A stopping server leaves the balancer's rotation while it still answers what comes.
    // Answered, not thrown: an expected answer of a stopping server, not an error to log.
    if (app.draining) return reply.code(503).send({ message: 'Draining: this server is stopping' });
    await pingDatabase(app.db).catch((err) => {
      throw new ServiceUnavailableError('Database unavailable', { cause: err });
    });
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
