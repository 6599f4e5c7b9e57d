/** Health, the client's public configuration, and web-vitals reports. */
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type ClientConfig, calls, errorSchema } from '../../shared/api';

const system: FastifyPluginAsyncZod<{ clientConfig: ClientConfig }> = async (app, opts) => {
  app.get(
    calls.health.path,
    {
      schema: {
        tags: ['system'],
        response: { 200: calls.health.response, 503: errorSchema },
      },
    },
    async (request, reply) => {
      try {
        await app.db.execute(sql`select 1`);
        return { status: 'ok' as const, database: 'ok' as const };
      } catch (err) {
        request.log.error({ err }, 'database health check failed');
        return reply.code(503).send({ message: 'Database unavailable' });
      }
    },
  );

  app.get(
    calls.config.path,
    { schema: { tags: ['system'], response: { 200: calls.config.response } } },
    async () => opts.clientConfig,
  );

  app.post(
    calls.vitals.path,
    {
      config: { rateLimit: { max: 600, timeWindow: '1 minute' } },
      schema: {
        tags: ['system'],
        body: calls.vitals.body,
        response: { 204: calls.vitals.response, 400: errorSchema },
      },
    },
    async (request, reply) => {
      request.log.info({ vital: request.body }, 'web vital');
      return reply.code(204).send(null);
    },
  );
};

export default system;
