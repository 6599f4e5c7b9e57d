/** The OpenAPI document at /api/openapi.json and a reference page at /api/docs. */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export default fp(async function openapi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Used-phone marketplace API',
        description:
          'The JSON API of the marketplace. Protected calls take `authorization: bearer <token>`.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    // The site's own policy (security plugin) covers the reference too; no outside validator badge.
    uiConfig: { docExpansion: 'list', deepLinking: false, validatorUrl: null },
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
});
