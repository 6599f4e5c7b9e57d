import { type CallInput, call } from '@client/lib/api-client';

export type ReportBody = CallInput<'reportListing'>['body'];

/** Reports a listing or a seller (issue 34); the reporter's list reads it under its own root. */
export const sendReport = (kind: 'listing' | 'seller', id: string, body: ReportBody) =>
  kind === 'listing'
    ? call('reportListing', { params: { id }, body })
    : call('reportSeller', { params: { id }, body });
