/**
 * A digest of every row of every table, to prove that a refused request changed nothing.
 * Works the same on PGlite and PostgreSQL.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client';

type Rows = { rows: Record<string, unknown>[] };

export async function fingerprint(db: Db): Promise<Record<string, string>> {
  const tables = (await db.execute(
    sql`select table_name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  )) as unknown as Rows;
  const digest: Record<string, string> = {};
  for (const { table_name } of tables.rows) {
    const name = String(table_name);
    // Counts of calls, not data: a refused call is counted against its limit on purpose (on
    // PostgreSQL the shared limits keep their counts here, decision 030).
    if (name === 'rate_limit_hits') continue;
    // A mail's row changes when the background delivery sends it; what was written is what counts.
    const rows =
      name === 'outbox_mails'
        ? sql`(select id, to_address, kind, subject from outbox_mails)`
        : sql.identifier(name);
    const result = (await db.execute(
      sql`select count(*)::text as n,
                 md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h
          from ${rows} t`,
    )) as unknown as Rows;
    const row = result.rows[0] ?? {};
    digest[name] = `${row.n}:${row.h}`;
  }
  return digest;
}
