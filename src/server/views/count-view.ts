/**
 * Where a view of a phone's page is counted (issue 35, decision 055's addendum): as the page or
 * the phone's data is served, in the same request, never a request of its own. Counting reads
 * nothing and answers nothing: it puts a view in the counter's buffer, which writes batches.
 */
import type { FastifyRequest } from 'fastify';
import { PHONE_SHOWN_HEADER } from '../../shared/constants';
import { secureCookies } from '../cookies';
import { deviceIdIn } from '../trust/devices';
import { countsAsPerson } from './view-counter';

/** A phone's id as the database takes it: anything else would fail the batch's cast. */
const PRODUCT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The phone page's path (the client's `product/:id` route), with or without a query. */
const PHONE_PAGE = /^\/product\/([^/?#]+)\/?(?:[?#].*)?$/;

/**
 * Whether the browser fetches this only in case it is shown (a link's prefetch, a prerender):
 * such a request says so (`Sec-Purpose`, or the older `Purpose`), and is no view yet.
 */
const speculative = (request: FastifyRequest) =>
  /prefetch/i.test(`${request.headers['sec-purpose'] ?? ''} ${request.headers.purpose ?? ''}`);

/** Fingerprints computed today, by who they are of: a repeat view costs a lookup, no HMAC. */
type Known = { viewer: string; deviceHash: string | null };
/** Per server (its fingerprints' key): today's, and which day that is. */
const knownBy = new WeakMap<object, { day: string; known: Map<string, Known> }>();
/** The most kept: a flood of new viewers costs this much memory at most, never more. */
const KNOWN_MAX = 10_000;

/**
 * The viewer's fingerprint and their device's, computed once a day per viewer in this process.
 * Kept in memory only, and only for today: the day is in the fingerprints, so nothing kept links
 * two days.
 */
function fingerprintsOf(
  request: FastifyRequest,
  day: string,
  who: { account: string } | { device: string } | { ip: string; userAgent: string },
  device: string | null,
): Known {
  const { fingerprints } = request.server;
  let today = knownBy.get(fingerprints);
  if (!today || today.day !== day || today.known.size >= KNOWN_MAX) {
    today = { day, known: new Map() };
    knownBy.set(fingerprints, today);
  }
  const key = JSON.stringify([who, device]);
  let found = today.known.get(key);
  if (!found) {
    found = {
      viewer: fingerprints.viewer(day, who),
      deviceHash: device ? fingerprints.device(device) : null,
    };
    today.known.set(key, found);
  }
  return found;
}

/**
 * Counts a view of `productId` by whoever made `request`: the browser by its device cookie, else
 * a signed-in account when its token named one, else the client address and user agent. A
 * robot that says so, a prefetch, or a server whose operator turned counting off counts nothing.
 */
function count(request: FastifyRequest, productId: string, accountId: string | null): void {
  const app = request.server;
  const userAgent = request.headers['user-agent'];
  if (!app.config.COUNT_VIEWS || !countsAsPerson(userAgent) || speculative(request)) return;
  if (!PRODUCT_ID.test(productId)) return;
  const day = new Date().toISOString().slice(0, 10);
  const device = deviceIdIn(request.headers.cookie, secureCookies(app.config));
  // The browser first, even with a token: its page (no token) and its data call (a token) must
  // be one viewer, and a device is noted for its account only once it came back to a noted
  // answer. The counter makes a noted device its account's; the account still leaves the seller
  // out, and the device the seller's own browsers (`account_devices`).
  const who = device
    ? { device }
    : accountId
      ? { account: accountId }
      : { ip: request.ip, userAgent: userAgent ?? '' };
  const { viewer, deviceHash } = fingerprintsOf(request, day, who, device);
  app.views.record({ productId: productId.toLowerCase(), day, viewer, accountId, deviceHash });
}

/**
 * A server-rendered page was served (from the kept pages or just rendered): a phone's page that
 * was found is a view. The page request carries no token, so the person is their browser; the
 * counter turns a browser only one account signed in from into that account, and leaves out the
 * seller's own browsers.
 */
export function countPageView(request: FastifyRequest, status: number): void {
  if (request.method !== 'GET' || status >= 400) return;
  const id = PHONE_PAGE.exec(request.url)?.[1];
  if (id) count(request, id, null);
}

/**
 * The phone's data was served to the phone page on a navigation in the browser. Only a call that
 * carries the page's mark counts: the renderer's own call (whose page counts already) and any
 * other reader of the phone (a script, a future prefetch) do not. A token, when sent, names the
 * person: its signature is checked, no session is read (an ended session's token still names its
 * person, which is all a count needs; an invalid one counts as a visitor).
 */
export async function countDataView(request: FastifyRequest, productId: string): Promise<void> {
  if (request.headers[PHONE_SHOWN_HEADER] !== '1' || !request.server.config.COUNT_VIEWS) return;
  const token = /^bearer\s+(\S+)$/i.exec(request.headers.authorization?.trim() ?? '')?.[1];
  const subject = token ? await request.server.accessTokens.verify(token) : undefined;
  count(request, productId, subject && 'userId' in subject ? subject.userId : null);
}
