/** The one way the client calls the product server: JSON in, schema-checked JSON out. */

import { errorSchema } from '@shared/api';
import { ACCESS_TOKEN_STORAGE_KEY } from '@shared/constants';
import { nextLink } from '@shared/pagination';
import type { z } from 'zod';

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

export async function apiRequest<S extends z.ZodType>(
  url: string,
  schema: S,
  { body, headers, ...init }: Options = {},
): Promise<ApiResult<z.infer<S>>> {
  const token = localStorage.getItem(ACCESS_TOKEN_STORAGE_KEY);
  let response: Response;
  try {
    response = await fetch(url, {
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
