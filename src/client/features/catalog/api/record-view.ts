import { call } from '@client/lib/api-client';

/**
 * Tells the server a phone's page was shown (issue 35, decision 055), with the token when there
 * is one, so a signed-in person counts once whatever their address and the seller not at all.
 * Nobody waits for it, and a failure is nobody's concern: a view is a figure, not a record.
 */
export const recordView = (id: string): void => {
  call('recordView', { params: { id } }).catch(() => {});
};
