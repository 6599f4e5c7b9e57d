/**
 * `npm run admin -- grant EMAIL | revoke EMAIL | list`: the operator's admin role, with the
 * server's environment (DATABASE_URL, DATA_DIR). See src/server/operator.ts.
 */
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import { DataDirInUseError } from '../src/server/db/data-dir-lock';
import {
  askRunningServer,
  type OperatorAnswer,
  parseOperatorArgs,
  runOperatorCommand,
} from '../src/server/operator';

const command = parseOperatorArgs(process.argv.slice(2));
if ('error' in command) {
  console.error(command.error);
  process.exit(2);
}
const config = loadConfig();
const adminEmails = new Set(config.ADMIN_EMAILS);

async function direct(): Promise<OperatorAnswer> {
  const database = await openDatabase(
    config.DATABASE_URL ? { url: config.DATABASE_URL } : { dataDir: `${config.DATA_DIR}/db` },
  );
  try {
    return await runOperatorCommand(database.db, adminEmails, command as never);
  } finally {
    await database.close();
  }
}

async function answer(): Promise<OperatorAnswer> {
  if (config.DATABASE_URL) return direct();
  const running = await askRunningServer(config.DATA_DIR, command as never);
  if (running) return running;
  try {
    return await direct();
  } catch (err) {
    if (!(err instanceof DataDirInUseError)) throw err;
    return {
      ok: false,
      message: `${err.message} It does not answer on its operator socket: restart it, then run this again.`,
    };
  }
}

const result = await answer();
(result.ok ? console.info : console.error)(result.message);
process.exit(result.ok ? 0 : 1);
