/** Makes the database available to every route as `app.db`. */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database, Db } from '../db/client';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    database: Database;
  }
}

export default fp(async function database(app: FastifyInstance, opts: { database: Database }) {
  app.decorate('database', opts.database);
  app.decorate('db', opts.database.db);
});
