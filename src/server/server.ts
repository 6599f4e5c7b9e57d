/** Starts the marketplace: config, database and migrations, demo data on first start, listen. */

import { buildApp, createServices, uploadsDirOf } from './app';
import { type Config, ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { DataDirInUseError } from './db/data-dir-lock';
import { LocalImageStore } from './images/image-store';
import { listenForOperator, runOperatorCommand } from './operator';
import { demoAccountsPresent, demoPassword, hasAnyUser, seedDemo } from './seed/demo';

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  const database = await openDatabase(
    config.DATABASE_URL ? { url: config.DATABASE_URL } : { dataDir: `${config.DATA_DIR}/db` },
  ).catch((err) => {
    if (!(err instanceof DataDirInUseError)) throw err;
    console.error(err.message);
    process.exit(1);
  });
  const services = await createServices(config, database);
  const password = config.SEED_DEMO ? await demoPassword(config.DATA_DIR) : '';
  if (config.SEED_DEMO && !(await hasAnyUser(database.db))) {
    const images = new LocalImageStore(uploadsDirOf(config), { allowSvg: true });
    await seedDemo(database.db, images, services.identity, services.imeiVault, password);
  }

  const app = await buildApp({ config, database, services, terminal: process.stdout.isTTY });
  const close = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', close);
  process.once('SIGTERM', close);

  const address = await app.listen({ port: config.PORT, host: config.HOST });
  // `npm run admin` reaches an embedded database through this server (src/server/operator.ts).
  if (database.kind === 'pglite') {
    await listenForOperator(config.DATA_DIR, (command) =>
      runOperatorCommand(database.db, services.adminEmails, command),
    );
  }
  const shown = config.PUBLIC_URL ?? address.replace(/\/\/(0\.0\.0\.0|\[::\])/, '//localhost');
  const lines = [
    `Used-phone marketplace is running at ${shown}`,
    `  database: ${database.kind}`,
    `  mail: ${services.outbox.transport.description}`,
  ];
  // Only the demo accounts this database has (the seed runs on an empty database only).
  const demo = config.SEED_DEMO ? await demoAccountsPresent(database.db) : [];
  if (demo.length > 0) {
    lines.push(`  demo accounts (password ${password}):`);
    for (const a of demo)
      lines.push(`    ${a.role.padEnd(7)} ${a.email}${a.verified ? ' (verified)' : ''}`);
  }
  console.info(lines.join('\n'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
