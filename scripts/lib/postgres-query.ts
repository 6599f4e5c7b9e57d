/** One statement on a connection of its own, closed after it: for tests and scripts that look into a database beside the app. */
import pg from 'pg';

export async function queryOnce<T extends pg.QueryResultRow>(
  url: string,
  text: string,
  values: unknown[] = [],
  { connectTimeoutMs }: { connectTimeoutMs?: number } = {},
): Promise<T[]> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: connectTimeoutMs,
  });
  // A server that goes away while this waits (a failover under test) fails the query, not the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}
