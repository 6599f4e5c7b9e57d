/** How a page of one phone or one seller becomes the 404 page (status 404 on the server too). */
import { ApiError } from '@client/lib/api-client';
import { data } from 'react-router';

/** The contract's ids are UUIDs: anything else cannot be a page, and is not asked for. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function idOrNotFound(id: string | undefined): string {
  if (!id || !UUID.test(id)) throw data(null, { status: 404 });
  return id;
}

/** What the server does not have (404), or would not look for (400, not an id), is not found. */
export function notFoundOn(error: unknown): never {
  if (error instanceof ApiError && (error.status === 404 || error.status === 400))
    throw data(null, { status: 404 });
  throw error;
}
