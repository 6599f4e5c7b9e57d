/** The real server on a fresh PGlite database seeded with the e2e fixture (started by Playwright). */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ensureClientBuild } from '../../scripts/client-build';
import { buildApp, createServices, uploadsDirOf } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/client';
import { LocalImageStore } from '../../src/server/images/image-store';
import { OIDC_PORT, seedFixture } from './fixture';
import { startMailbox } from './mailbox';
import { OIDC_CLIENT, startOidcProvider } from './oidc-provider';

await ensureClientBuild();
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'phone-market-e2e-'));
const port = process.env.E2E_PORT ?? '4173';
const google = await startOidcProvider(OIDC_PORT, `http://127.0.0.1:${port}`);
const mailbox = await startMailbox();
/**
 * Settings of a spec's own server (payouts.spec.ts starts one with short money periods, which
 * would change what the other specs see on the shared one): JSON, over the defaults below.
 */
const ownSettings = JSON.parse(process.env.E2E_SERVER_ENV ?? '{}') as Record<string, string>;
const config = loadConfig({
  DATA_DIR: dataDir,
  PORT: port,
  HOST: '127.0.0.1',
  SEED_DEMO: '0',
  LOG_LEVEL: 'warn',
  // Every browser test signs up and in from this one address.
  SIGN_UPS_PER_ADDRESS: '1000000',
  SIGN_UPS_IN_ALL: '1000000',
  IDENTITY_RATE_LIMIT: '0',
  GOOGLE_CLIENT_ID: OIDC_CLIENT.id,
  GOOGLE_CLIENT_SECRET: OIDC_CLIENT.secret,
  GOOGLE_ISSUER: google.issuer,
  SMTP_URL: mailbox.smtpUrl,
  MAIL_FROM: 'Phone Market <market@test.example>',
  ...ownSettings,
});
const database = await openDatabase({ dataDir: path.join(dataDir, 'db') });
const services = await createServices(config, database);
await seedFixture(
  database.db,
  new LocalImageStore(uploadsDirOf(config), { allowSvg: true }),
  services.identity,
);
const app = await buildApp({ config, database, services });
await app.listen({ port: config.PORT, host: config.HOST });
