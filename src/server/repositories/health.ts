/** The database's own health, for `GET /api/health`. */
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client';

/**
 * Throws when the database does not answer within `timeoutMs`, or answers as a standby (this
 * server reaches no primary: a write would fail), so the balancer takes the server out of its
 * rotation until a primary is back (issue 32).
 */
export async function pingDatabase(db: Db, timeoutMs = 3000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const [row] = await Promise.race([
      rowsOf<{ standby: boolean }>(db, sql`select pg_is_in_recovery() as standby`),
      timeout,
    ]);
    if (row?.standby) throw new Error('the database is a standby: no primary reached');
  } finally {
    clearTimeout(timer);
  }
}
