/**
 * How the client reaches the product server, for the API client and the session alike: a call of
 * the contract becomes a request (method and path from `callRoutes`), its answer typed JSON or an
 * ApiError. Answers are typed by the contract's schemas but not parsed with them: the server
 * serializes every answer through the same schema, and only type imports of `@shared/api` keep
 * zod (about 28 KB gzipped) off every first visit. See docs/decisions/014-performance-bench.md.
 */
import type { calls } from '@shared/api';
import { apiPath, type CallName, callRoutes, type Method } from '@shared/call-routes';
import { nextLink } from '@shared/pagination';
import type { z } from 'zod';
import { plainMessage } from './plain-message';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** A refusal's problems by the body path each is about (`specificatons.battery`), for a form. */
    readonly fields: Record<string, string> = {},
    /** A 429's or 503's `Retry-After` in seconds: when asking again may be answered. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Calls = typeof calls;
type Part = 'params' | 'query' | 'body';
/** What one part of a call's request takes: its schema's input, before defaults and coercion. */
type PartInput<K extends CallName, P extends Part> =
  Calls[K] extends Record<P, infer S extends z.ZodType> ? z.input<S> : never;
type Has<K extends CallName, P extends Part> = [PartInput<K, P>] extends [never] ? false : true;
/** Whether a call may leave out a part: every field of its input is optional. */
type Optional<K extends CallName, P extends Part> =
  Partial<PartInput<K, P>> extends PartInput<K, P> ? true : false;
type Parts<K extends CallName, optional extends boolean> = {
  [P in Part]: Has<K, P> extends true ? (Optional<K, P> extends optional ? P : never) : never;
}[Part];

/** The params, query and body a call takes, e.g. `CallInput<'deleteProduct'>` is `{ query: { id } }`. */
export type CallInput<K extends CallName> = { [P in Parts<K, false>]: PartInput<K, P> } & {
  [P in Parts<K, true>]?: PartInput<K, P>;
};

/** What a call of the contract answers, e.g. `Answer<'listCategories'>`. */
export type Answer<K extends CallName> = z.infer<Calls[K]['response']>;

/** The calls that answer a list a page at a time (their query takes a `cursor`). */
export type PagedCall = {
  [K in CallName]: Has<K, 'query'> extends true
    ? 'cursor' extends keyof PartInput<K, 'query'>
      ? K
      : never
    : never;
}[CallName];

/** One page of a list, and the URL of the next (the server's `Link: rel="next"`), if any. */
export type Page<T> = { data: T; next: string | null };

/** How requests reach the server: the browser's fetch, or the server's own router while it renders a page. */
let fetchApi: typeof fetch = (input, init) => fetch(input, init);
export function setApiFetch(implementation: typeof fetch): void {
  fetchApi = implementation;
}

/** The server's `{ message }`, or a card processor's `{ error: { message } }` (Stripe's shape). */
function messageOf(payload: unknown): string | null {
  const body = payload as { message?: unknown; error?: { message?: unknown } } | null;
  const message = body?.message ?? body?.error?.message;
  return typeof message === 'string' ? message : null;
}

/** The `fields` of a refusal (issue 19): each a text, by its path. */
function fieldsOf(payload: unknown): Record<string, string> {
  const fields = (payload as { fields?: unknown } | null)?.fields;
  if (!fields || typeof fields !== 'object') return {};
  return Object.fromEntries(
    Object.entries(fields).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
}

async function exchange<T>(
  url: string,
  method: Method,
  body: unknown,
  token: string | null,
  extraHeaders: Record<string, string> = {},
): Promise<Page<T>> {
  let response: Response;
  try {
    response = await fetchApi(url, {
      method,
      headers: {
        ...extraHeaders,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'Network Error');
  }
  // A CSV export (the admin's Finance) answers text; every other answer, and every refusal, JSON.
  const payload: unknown =
    response.status === 204
      ? null
      : response.ok && response.headers.get('content-type')?.startsWith('text/csv')
        ? await response.text()
        : await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(
      response.status,
      plainMessage(messageOf(payload) ?? `Request failed with status code ${response.status}`),
      fieldsOf(payload),
      retryAfterOf(response.headers.get('retry-after')),
    );
  }
  return { data: payload as T, next: nextLink(response.headers.get('link')) };
}

/** `Retry-After` in seconds (a date form is not sent by our server), or undefined. */
function retryAfterOf(header: string | null): number | undefined {
  const seconds = Number(header);
  return header && Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

/**
 * A call's query as a URL's query string, without the `?`: a list repeats its parameter
 * (`{ ram: ['4 GB', '8 GB'] }` is `ram=4%20GB&ram=8%20GB`, as the contract's repeated filters
 * take it); undefined values and empty lists are left out.
 */
export function queryString(query: Record<string, unknown>): string {
  return Object.entries(query)
    .flatMap(([key, value]) => (Array.isArray(value) ? value : [value]).map((v) => [key, v]))
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join('&');
}

/** The call's path with its params filled in, then its query, e.g. `/api/products?id=…`. */
function urlOf<K extends CallName>(name: K, input: CallInput<K>): string {
  const { params, query } = input as {
    params?: Record<string, string>;
    query?: Record<string, unknown>;
  };
  const search = queryString(query ?? {});
  return apiPath(callRoutes[name].path, params) + (search ? `?${search}` : '');
}

/**
 * Sends a call of the contract, with `token` as the spec's bearer header when there is one, and
 * `headers` of the caller's own (the phone page's mark that it shows the phone).
 */
export function send<K extends CallName>(
  name: K,
  input: CallInput<K>,
  token: string | null = null,
  headers: Record<string, string> = {},
): Promise<Page<Answer<K>>> {
  const { body } = input as { body?: unknown };
  return exchange(urlOf(name, input), callRoutes[name].method, body, token, headers);
}

/** GETs a URL the server handed out (a list's next page), as it was given. */
export function follow<T>(url: string, token: string | null): Promise<Page<T>> {
  return exchange(url, 'GET', undefined, token);
}

/**
 * Sends a call's body with `navigator.sendBeacon`: nobody waits for the answer, and the browser
 * delivers it even while the page is closing (web vitals are often reported then).
 */
export function beacon<K extends CallName>(name: K, input: CallInput<K>): void {
  const { body } = input as { body?: unknown };
  navigator.sendBeacon?.(
    urlOf(name, input),
    new Blob([JSON.stringify(body)], { type: 'application/json' }),
  );
}
