/**
 * The app's calls to the product server, named as the contract names them and sent with the
 * signed-in user's token: `call('deleteProduct', { query: { id } })`, and a paged list a page at
 * a time with `callPage('listSellers', {}, next)`. Built on the transport, which the session
 * uses too, so the session never needs this module.
 */
import type { CallName } from '@shared/call-routes';
import { getAccessToken, session } from './auth/session';
import {
  type Answer,
  ApiError,
  type CallInput,
  follow,
  type Page,
  type PagedCall,
  send,
} from './transport';

/** What the app's code meets of the transport: the error a call throws, and the contract's types. */
export { type Answer, ApiError, type CallInput } from './transport';

let onSessionExpired: () => void = () => {};
/** What to do when the server refuses the token even after one renewal (the app goes to /signin). */
export function setSessionExpiredHandler(handler: () => void): void {
  onSessionExpired = handler;
}

const isRefusal = (error: unknown) => error instanceof ApiError && error.status === 401;

async function endSessionIfRefused(error: unknown): Promise<never> {
  if (isRefusal(error)) {
    await session.signOut();
    onSessionExpired();
  }
  throw error;
}

/** Sends with the stored token. A 401 renews the token once; if the server still refuses, the session is over. */
async function withToken<T>(request: (token: string | null) => Promise<T>): Promise<T> {
  const token = getAccessToken();
  try {
    return await request(token);
  } catch (error) {
    if (!token || !isRefusal(error)) throw error;
    const renewed = await session.renewToken();
    if (!renewed) return endSessionIfRefused(error);
    return request(renewed).catch(endSessionIfRefused);
  }
}

/** A call's input may be left out when it has no part that must be given. */
type InputArgs<K extends CallName> =
  Partial<CallInput<K>> extends CallInput<K> ? [input?: CallInput<K>] : [input: CallInput<K>];

/** Makes a call of the contract and answers what the server sent. */
export function call<K extends CallName>(name: K, ...[input]: InputArgs<K>): Promise<Answer<K>> {
  return withToken((token) => send(name, input ?? ({} as CallInput<K>), token)).then(
    (page) => page.data,
  );
}

/**
 * As `call`, with headers of the caller's own: the phone page marks its call for the phone, the
 * one that counts a view (decision 055's addendum).
 */
export function callWithHeaders<K extends CallName>(
  name: K,
  input: CallInput<K>,
  headers: Record<string, string>,
): Promise<Answer<K>> {
  return withToken((token) => send(name, input, token, headers)).then((page) => page.data);
}

/** One page of a paged list: the first, or the one at `next`, the URL the previous page gave. */
export function callPage<K extends PagedCall>(
  name: K,
  input: CallInput<K>,
  next: string | null = null,
): Promise<Page<Answer<K>>> {
  return withToken((token) => (next ? follow<Answer<K>>(next, token) : send(name, input, token)));
}

/** GETs a URL of our API as given, with the token (its tests drive the token handling through it). */
export const apiGet = <T>(url: string): Promise<T> =>
  withToken((token) => follow<T>(url, token)).then((page) => page.data);
