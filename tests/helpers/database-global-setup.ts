/**
 * Migrates one base database per run; each test file then starts from a copy of it
 * (a PGlite dump, or a PostgreSQL database cloned from a template), so files share nothing.
 */
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/client';
import { TEMPLATE_DB, withDatabase } from './postgres-url';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDump: string;
    postgresUrl: string | null;
  }
}

export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL || null;
  if (url) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
    await admin.end();
    const template = await openDatabase({ url: withDatabase(url, TEMPLATE_DB) });
    await template.close();
    project.provide('postgresUrl', url);
    project.provide('pgliteDump', '');
    return;
  }
  const base = await openDatabase({});
  const dumpFile = path.join(os.tmpdir(), `phone-market-test-${process.pid}.tar.gz`);
  if (!base.dump) throw new Error('PGlite database cannot be dumped');
  const dump = await base.dump();
  await writeFile(dumpFile, Buffer.from(await dump.arrayBuffer()));
  await base.close();
  project.provide('pgliteDump', dumpFile);
  project.provide('postgresUrl', null);
}
