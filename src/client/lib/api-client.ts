/**
 * The one way the client calls the product server: JSON in, typed JSON out.
 * Answers are typed by the contract's schemas but not parsed with them here: the server
 * serializes every answer through the same schema, and leaving zod out of this module keeps
 * it (about 28 KB gzipped) off every first visit. See docs/decisions/014-performance-bench.md.
 */

import type { calls } from '@shared/api';
import type { CallName } from '@shared/call-routes';
import { nextLink } from '@shared/pagination';
import type { z } from 'zod';
import { getAccessToken, session } from './auth/session';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type ApiResult<T> = { data: T; next: string | null };

/** What a call of the contract answers, e.g. `Answer<'listCategories'>`. */
export type Answer<K extends CallName> = z.infer<(typeof calls)[K]['response']>;

/** The server's `{ message }`, or null when the body is something else. */
function messageOf(payload: unknown): string | null {
  const message = (payload as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : null;
}

type Options = Omit<RequestInit, 'body'> & { body?: unknown };

/** How calls reach the server: the browser's fetch, or the server's own router while it renders a page. */
let fetchApi: typeof fetch = (input, init) => fetch(input, init);
export function setApiFetch(implementation: typeof fetch): void {
  fetchApi = implementation;
}

let onSessionExpired: () => void = () => {};
/** What to do when the server refuses the token even after one renewal (the app goes to /signin). */
export function setSessionExpiredHandler(handler: () => void): void {
  onSessionExpired = handler;
}

async function send(
  url: string,
  { body, headers, ...init }: Options,
  token: string | null,
): Promise<Response> {
  try {
    return await fetchApi(url, {
      ...init,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `bearer ${token}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'Network Error');
  }
}

export async function apiRequest<T>(url: string, options: Options = {}): Promise<ApiResult<T>> {
  const token = getAccessToken();
  let response = await send(url, options, token);
  if (response.status === 401 && token) {
    // A 401 renews the token once; if the server still refuses, the session is over.
    const renewed = await session.renewToken();
    if (renewed) response = await send(url, options, renewed);
    if (response.status === 401) {
      await session.signOut();
      onSessionExpired();
    }
  }
  const payload: unknown = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(
      response.status,
      messageOf(payload) ?? `Request failed with status code ${response.status}`,
    );
  }
  return { data: payload as T, next: nextLink(response.headers.get('link')) };
}

export const apiGet = <T>(url: string) => apiRequest<T>(url).then((r) => r.data);
