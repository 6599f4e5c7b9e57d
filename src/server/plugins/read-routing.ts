/**
 * Read replicas where they help (issue 32, decision 048). The public catalog, the search, the
 * phone pages and a person's own lists read through `readFor(request, …)`; everything else
 * (writes, sign-in and sessions, the order process, money) keeps `app.db`, the primary.
 *
 * A person always reads their own writes: after their write (an unsafe method answered 2xx to a
 * signed-in person) the answer carries the primary's WAL position in a cookie, so whichever
 * server gets the person's next request knows it; their reads go to the replica only once it
 * has replayed that far (db/read-router.ts), otherwise to the primary. The cookie is input like any other: a value that
 * is not an LSN counts as none, and a forged one can only send that person's own reads to the
 * primary. Anyone without the cookie reads the replica, a moment behind at most.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { cookieValues, secureCookies } from '../cookies';
import type { Db } from '../db/client';
import { formatLsn, LAST_LSN, parseLsn, type Reader, ReadRouter } from '../db/read-router';

declare module 'fastify' {
  interface FastifyInstance {
    /** Sends reads to the read replica or the primary (decision 048). */
    reads: ReadRouter;
  }
}

/** The cookie holding the WAL position of the person's last write. */
export const POSITION_COOKIE = 'wal-position';

/**
 * How long the cookie lives after the last write. Past it the person reads as anyone does: a
 * replica a day behind its primary is broken, not lagging, and is the operator's to take out.
 */
const POSITION_MAX_AGE_S = 24 * 60 * 60;

/**
 * When the primary cannot say where its WAL ends after a write (it went away after the commit),
 * the person's reads go to the primary for this long instead.
 */
const UNKNOWN_POSITION_MAX_AGE_S = 60;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The WAL position this request's reads must see: the person's last write's, or 0n (none, or
 * anything that is not an LSN). Several cookies of the name (another path's, a forged one): the
 * highest, so a person's own write is never read past.
 */
export function positionOf(request: FastifyRequest): bigint {
  if (!request.server.reads.hasReplica) return 0n;
  let position = 0n;
  for (const value of cookieValues(request.headers.cookie, POSITION_COOKIE)) {
    const parsed = parseLsn(value);
    if (parsed !== null && parsed > position) position = parsed;
  }
  return position;
}

/** Runs a read for this request where it may run (see above). */
export function readFor<T>(request: FastifyRequest, work: (db: Db) => Promise<T>): Promise<T> {
  return request.server.reads.read(positionOf(request), (reader) => work(reader.db));
}

/** As `readFor`, with where the read ran and what it has seen (the public answers keep that). */
export function readerFor<T>(
  request: FastifyRequest,
  work: (reader: Reader) => Promise<T>,
): Promise<T> {
  return request.server.reads.read(positionOf(request), work);
}

export default fp(async function readRouting(app: FastifyInstance) {
  const router = new ReadRouter(app.database.db, app.database.readPool, app.log);
  app.decorate('reads', router);
  if (!router.hasReplica) return;
  const secure = secureCookies(app.config) ? '; Secure' : '';
  // Path=/: the pages the server renders read through the API as the person (plugins/client.ts).
  const cookie = (value: string, maxAge: number) =>
    `${POSITION_COOKIE}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
  // onSend runs after the handler's transaction has committed, before the client hears of it.
  // Only a signed-in person's writes: what anyone may post (web-vitals beacons, a sign-up) is
  // not read back through these routes, and a position on every visitor would keep them all
  // from the public answers kept for anyone (plugins/public-answers.ts).
  app.addHook('onSend', async (request, reply, payload) => {
    if (
      SAFE_METHODS.has(request.method) ||
      reply.statusCode < 200 ||
      reply.statusCode > 299 ||
      (request.caller === null && request.identity === null)
    ) {
      return payload;
    }
    try {
      reply.header(
        'set-cookie',
        cookie(formatLsn(await router.writtenPosition()), POSITION_MAX_AGE_S),
      );
    } catch (err) {
      request.log.warn(
        { err },
        'the WAL position after a write is unknown; reads go to the primary',
      );
      reply.header('set-cookie', cookie(formatLsn(LAST_LSN), UNKNOWN_POSITION_MAX_AGE_S));
    }
    return payload;
  });
});
