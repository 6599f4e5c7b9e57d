/** The real server on a fresh PGlite database seeded with the e2e fixture (started by Playwright). */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ensureClientBuild } from '../../scripts/client-build';
import { buildApp, uploadsDirOf } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/client';
import { LocalImageStore } from '../../src/server/images/image-store';
import { seedFixture } from './fixture';

await ensureClientBuild();
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'phone-market-e2e-'));
const config = loadConfig({
  DATA_DIR: dataDir,
  PORT: process.env.E2E_PORT ?? '4173',
  HOST: '127.0.0.1',
  SEED_DEMO: '0',
  LOG_LEVEL: 'warn',
});
const database = await openDatabase({ dataDir: path.join(dataDir, 'db') });
await seedFixture(database.db, new LocalImageStore(uploadsDirOf(config), { allowSvg: true }));
const app = await buildApp({ config, database });
await app.listen({ port: config.PORT, host: config.HOST });
