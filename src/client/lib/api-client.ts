/** The one way the client calls the product server: JSON in, schema-checked JSON out. */

import { errorSchema } from '@shared/api';
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

type Options = Omit<RequestInit, 'body'> & { body?: unknown };

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
    return await fetch(url, {
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

export async function apiRequest<S extends z.ZodType>(
  url: string,
  schema: S,
  options: Options = {},
): Promise<ApiResult<z.infer<S>>> {
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
    const parsed = errorSchema.safeParse(payload);
    throw new ApiError(
      response.status,
      parsed.success ? parsed.data.message : `Request failed with status code ${response.status}`,
    );
  }
  return { data: schema.parse(payload), next: nextLink(response.headers.get('link')) };
}

export const apiGet = <S extends z.ZodType>(url: string, schema: S) =>
  apiRequest(url, schema).then((r) => r.data);
