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

/**
 * Counts a view of `productId` by whoever made `request`: a signed-in account when its token
 * named one, else the browser by its device cookie, else the client address and user agent. A
 * robot that says so, a prefetch, or a server whose operator turned counting off counts nothing.
 */
function count(request: FastifyRequest, productId: string, accountId: string | null): void {
  const app = request.server;
  const userAgent = request.headers['user-agent'];
  if (!app.config.COUNT_VIEWS || !countsAsPerson(userAgent) || speculative(request)) return;
  if (!PRODUCT_ID.test(productId)) return;
  const day = new Date().toISOString().slice(0, 10);
  const device = deviceIdIn(request.headers.cookie, secureCookies(app.config));
  app.views.record({
    productId: productId.toLowerCase(),
    day,
    viewer: app.fingerprints.viewer(
      day,
      accountId
        ? { account: accountId }
        : device
          ? { device }
          : { ip: request.ip, userAgent: userAgent ?? '' },
    ),
    accountId,
    // The seller's own browsers are known by it in `account_devices` (the counter leaves them out).
    deviceHash: device ? app.fingerprints.device(device) : null,
  });
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
