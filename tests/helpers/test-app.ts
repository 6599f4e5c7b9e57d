/** Builds the real app on a database of its own for one test file. */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { type AppOptions, buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { type Database, openDatabase } from '../../src/server/db/client';
import { TEMPLATE_DB, withDatabase } from './postgres-url';

/** A fresh, migrated PostgreSQL database cloned from the run's template; `drop` removes it. */
export async function createPostgresDatabase(
  url: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `phone_market_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}`);
  await admin.end();
  return {
    url: withDatabase(url, name),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

export async function createTestDatabase(): Promise<Database> {
  const url = inject('postgresUrl');
  if (url) {
    const created = await createPostgresDatabase(url);
    const database = await openDatabase({ url: created.url });
    return {
      ...database,
      close: async () => {
        await database.close();
        await created.drop();
      },
    };
  }
  const dump = await readFile(inject('pgliteDump'));
  return openDatabase({ loadDataDir: new Blob([dump]) });
}

export type TestApp = {
  app: FastifyInstance;
  database: Database;
  dataDir: string;
  close: () => Promise<void>;
};

export async function buildTestApp(
  env: Record<string, string> = {},
  { logStream }: Pick<AppOptions, 'logStream'> = {},
): Promise<TestApp> {
  return buildTestAppOn(await createTestDatabase(), env, { logStream });
}

/**
 * The real app on `database` (a test that opens its own: through a relay, on a PostgreSQL it
 * started); closing it closes the database too.
 */
export async function buildTestAppOn(
  database: Database,
  env: Record<string, string> = {},
  { logStream }: Pick<AppOptions, 'logStream'> = {},
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'phone-market-data-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    // The factories write the database directly, as another process would, and a test must see
    // their rows at once; tests/api/public-answers.test.ts turns the reuse on and tests it.
    PUBLIC_CACHE_MS: '0',
    // Every test signs up from one address; the limit tests set these low themselves.
    SIGN_UPS_PER_ADDRESS: '1000000',
    SIGN_UPS_IN_ALL: '1000000',
    IDENTITY_RATE_LIMIT: '0',
    ...env,
  });
  const app = await buildApp({ config, database, logStream });
  return {
    app,
    database,
    dataDir,
    close: async () => {
      await app.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
