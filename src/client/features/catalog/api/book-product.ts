import { ApiError, type CallInput, call } from '@client/lib/api-client';

/**
 * Books a phone. Our server answers a phone someone else booked first with 409; it reads here as
 * the spec's `acknowledged: false`, so the page has one answer to draw.
 */
export const bookProduct = (booking: CallInput<'book'>['body']) =>
  call('book', { body: booking }).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 409) return { acknowledged: false };
    throw error;
  });
