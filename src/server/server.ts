/** Starts the marketplace: config, database and migrations, demo data on first start, listen. */

import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildApp, createServices } from './app';
import { SecretsMismatchError } from './auth/secrets-fingerprint';
import { RESTORE_JOURNAL } from './backup/restore-backup';
import { type Config, ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { DataDirInUseError } from './db/data-dir-lock';
import { imageStoreOf } from './images/image-store-of';
import { bookEarlierSales } from './ledger/opening';
import { listenForOperator, runOperatorCommand } from './operator';
import { createFilesPrivately, makeDataDirPrivate } from './private-files';
import { demoAccountsPresent, demoPassword, hasAnyUser, seedDemo } from './seed/demo';
import { mailLinkLines } from './site-url';

/** How long the close waits for requests under way before it cuts their connections. */
const CLOSE_GRACE_MS = 3000;

async function main(): Promise<void> {
  // Before anything is written: the database, mail, photos and secrets are the owner's alone.
  createFilesPrivately();
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

  const open = await makeDataDirPrivate(config.DATA_DIR);
  if (open.length > 0) {
    const what = open.map((name) => (name === '.' ? 'the directory itself' : name)).join(', ');
    console.warn(
      `DATA_DIR ${path.resolve(config.DATA_DIR)} was readable by others (${what}); made private: only its owner can read it now (directories 0700, files 0600).`,
    );
  }

  // A restore cut off halfway left DATA_DIR part old, part restored: it must finish first.
  if (!config.DATABASE_URL && existsSync(path.join(config.DATA_DIR, RESTORE_JOURNAL))) {
    console.error(
      `A restore into ${config.DATA_DIR} was cut off before it finished: run \`npm run restore\` again to finish it, then start the server.`,
    );
    process.exit(1);
  }
  const database = await openDatabase(
    config.DATABASE_URL
      ? { url: config.DATABASE_URL, readUrl: config.DATABASE_READ_URL }
      : { dataDir: `${config.DATA_DIR}/db` },
  ).catch((err) => {
    if (!(err instanceof DataDirInUseError)) throw err;
    console.error(err.message);
    process.exit(1);
  });
  const services = await createServices(config, database).catch(async (err) => {
    if (!(err instanceof SecretsMismatchError)) throw err;
    console.error(err.message);
    await database.close();
    process.exit(1);
  });
  const password = config.SEED_DEMO ? await demoPassword(config.DATA_DIR) : '';
  // Under the start lock: of servers starting together on an empty database, one seeds it.
  await database.exclusively(async () => {
    if (config.SEED_DEMO && !(await hasAnyUser(database.db))) {
      const images = await imageStoreOf(config, { allowSvg: true });
      await seedDemo(database.db, images, services.identity, services.imeiVault, password);
    }
    // Sales from before the ledger (and the demo's past sales) are booked once (issue 30).
    await bookEarlierSales(database.db);
  });

  const app = await buildApp({ config, database, services, terminal: process.stdout.isTTY });
  // SIGTERM (a deploy, an orchestrator) drains first: out of the balancer's rotation, then
  // closed with nothing in flight. SIGINT (Ctrl-C at a terminal) closes at once; a second
  // signal cuts a drain short.
  let stopping = false;
  let cutShort = () => {};
  const shutDown = async (signal: NodeJS.Signals) => {
    if (stopping) return cutShort();
    stopping = true;
    if (signal === 'SIGTERM' && config.DRAIN_MS > 0) {
      app.log.info({ signal, drainMs: config.DRAIN_MS }, 'draining');
      const interrupted = new Promise<void>((resolve) => {
        cutShort = resolve;
      });
      await Promise.race([app.drain(config.DRAIN_MS), interrupted]);
    }
    app.log.info({ signal }, 'shutting down');
    // A connection whose request never finished (a body not sent whole, a client gone quiet)
    // would hold the close for ever: after a moment it is cut, as a drain's leftovers are.
    setTimeout(() => app.server.closeAllConnections(), CLOSE_GRACE_MS).unref();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', shutDown);
  process.on('SIGTERM', shutDown);

  const address = await app.listen({ port: config.PORT, host: config.HOST });
  // `npm run admin` and `npm run backup` reach an embedded database through this server
  // (src/server/operator.ts).
  if (database.kind === 'pglite') {
    await listenForOperator(config.DATA_DIR, database, (command) =>
      runOperatorCommand(database.db, services.adminEmails, command),
    );
  }
  const shown = config.PUBLIC_URL ?? address.replace(/\/\/(0\.0\.0\.0|\[::\])/, '//localhost');
  const lines = [
    `Used-phone marketplace is running at ${shown}`,
    `  database: ${database.kind}`,
    `  mail: ${services.outbox.transport.description}`,
    ...mailLinkLines(config),
    `  limits: counted in ${services.limits.kind === 'memory' ? "this process's memory" : services.limits.kind}`,
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
  // A setting that turns out unusable (an unreachable bucket) is told as one message, no stack.
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
