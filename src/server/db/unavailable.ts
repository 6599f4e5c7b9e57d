/**
 * Which database errors mean "the primary went away" (a failover, a restart, the network), as
 * opposed to a fault of ours: those answer 503 with `Retry-After`, never a 500 (issue 32,
 * decision 045). The transaction they broke was rolled back by PostgreSQL, so nothing is half
 * written, and every write the API offers may be asked again (ARCHITECTURE.md's "exactly once").
 */

/** How long a client should wait before asking again: about one failover on Patroni's timings. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

export const DATABASE_UNAVAILABLE =
  'The marketplace is briefly unavailable. Nothing was changed: please try again in a moment.';

/**
 * SQLSTATE classes and codes a failover or a restart produces:
 * - `08…` connection exception (the server cut the connection or refused it);
 * - `57P01` admin shutdown, `57P02` crash shutdown, `57P03` cannot connect now (starting up,
 *   in recovery), `57P04` database dropped;
 * - `25006` read-only SQL transaction: the connection reached a node that is a standby now
 *   (a demoted primary, or a multi-host string without `target_session_attrs`);
 * - `40001`/`40P01` are not here: a serialization failure or deadlock is a conflict of ours,
 *   retried where it can happen, not an outage.
 */
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '57P04', '25006']);

/** Node's socket errors when the database (or haproxy in front of it) is unreachable. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * node-postgres' own words for a connection that ended or never came (it gives them no code),
 * and PGlite's for a closed database.
 */
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
  'terminating connection',
];

/** Answers whether `err` (or what it wraps: Drizzle wraps the driver's error as its cause) says the database is away. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (code.startsWith('08') || UNAVAILABLE_CODES.has(code) || SOCKET_CODES.has(code))
        return true;
    }
    if (typeof message === 'string' && CONNECTION_MESSAGES.some((m) => message.includes(m)))
      return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * The log level of a failure of background work: a database failing over is expected and
 * passes (a warning: the work is asked again), anything else is a fault to look at.
 */
export const levelOfFailure = (err: unknown): 'warn' | 'error' =>
  isDatabaseUnavailable(err) ? 'warn' : 'error';
