/**
 * The application as one Fastify plugin: external plugins first (errors, security, database,
 * docs), then the API routes under /api, then the client. `server.ts` only listens.
 */
import path from 'node:path';
import sensible from '@fastify/sensible';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { API_BASE, type ClientConfig } from '../shared/api';
import type { Config } from './config';
import type { Database } from './db/client';
import clientPlugin from './plugins/client';
import databasePlugin from './plugins/database';
import errorsPlugin from './plugins/errors';
import openapiPlugin from './plugins/openapi';
import securityPlugin from './plugins/security';
import catalogRoutes from './routes/catalog';
import systemRoutes from './routes/system';

export type AppOptions = {
  config: Config;
  database: Database;
};

export const uploadsDirOf = (config: Config) => path.join(config.DATA_DIR, 'uploads');

export function clientConfigOf(_config: Config): ClientConfig {
  return {
    identity: { google: false },
    payments: { provider: 'embedded', publishableKey: null },
    images: { provider: 'embedded', uploadUrl: `${API_BASE}/images` },
  };
}

export async function app(fastify: FastifyInstance, opts: AppOptions): Promise<void> {
  fastify.setValidatorCompiler(validatorCompiler);
  fastify.setSerializerCompiler(serializerCompiler);
  await fastify.register(sensible);
  await fastify.register(errorsPlugin);
  await fastify.register(securityPlugin);
  await fastify.register(databasePlugin, { database: opts.database });
  await fastify.register(openapiPlugin);

  await fastify.register(
    async (api) => {
      await api.register(catalogRoutes, { publicUrl: opts.config.PUBLIC_URL });
      await api.register(systemRoutes, { clientConfig: clientConfigOf(opts.config) });
    },
    { prefix: API_BASE },
  );

  await fastify.register(clientPlugin, {
    clientDir: opts.config.CLIENT_DIR,
    uploadsDir: uploadsDirOf(opts.config),
  });
}

/** Builds a ready Fastify instance around the app plugin (used by server.ts and the tests). */
export async function buildApp(
  opts: AppOptions,
  serverOptions: FastifyServerOptions = {},
): Promise<FastifyInstance> {
  const fastify = Fastify({
    logger: {
      level: opts.config.LOG_LEVEL,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    },
    trustProxy: opts.config.PUBLIC_URL !== undefined,
    bodyLimit: 1024 * 1024,
    ...serverOptions,
  }).withTypeProvider<ZodTypeProvider>();
  await fastify.register(app, opts);
  await fastify.ready();
  return fastify;
}
