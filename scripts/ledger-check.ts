/**
 * `npm run ledger:check`: proves the books add up (src/server/ledger/check.ts, issue 30). With a
 * server running on DATA_DIR it asks that server (the embedded database is its alone); otherwise
 * it opens the database itself: DATABASE_URL's PostgreSQL, or DATA_DIR's. Exits 1 on a problem.
 */
import path from 'node:path';
import { openDatabase } from '../src/server/db/client';
import { checkLedger } from '../src/server/ledger/check';
import { askRunningServer, ledgerReport } from '../src/server/operator';
import { configOrFail } from './lib/command-line';

const config = configOrFail();

async function check(): Promise<{ ok: boolean; message: string }> {
  if (!config.DATABASE_URL) {
    const answer = await askRunningServer(config.DATA_DIR, { command: 'ledger-check' });
    if (answer) return answer;
  }
  const database = await openDatabase(
    config.DATABASE_URL
      ? { url: config.DATABASE_URL }
      : { dataDir: path.join(config.DATA_DIR, 'db') },
  );
  try {
    const problems = await checkLedger(database.db);
    return { ok: problems.length === 0, message: ledgerReport(problems) };
  } finally {
    await database.close();
  }
}

const { ok, message } = await check();
if (ok) console.info(message);
else console.error(message);
process.exitCode = ok ? 0 : 1;
