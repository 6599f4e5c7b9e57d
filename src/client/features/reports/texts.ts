import type { ReportStatus } from '@shared/risk-names';

/** The My reports page (issue 34). */
export const MY_REPORTS_TEXT = {
  title: 'My reports',
  intro:
    'What you reported, and what became of it. We tell you when we decide; the seller is never told who reported.',
  emptyTitle: 'You have not reported anything',
  empty:
    'If a listing or a seller looks wrong (a price too good to be true, a phone that may be stolen), use “Report this listing” or “Report this seller” on its page.',
  browse: 'Browse phones',
  listing: 'Listing',
  seller: 'Seller',
  reason: 'Reason',
  sent: 'Sent',
  decided: 'Decided',
  status: 'Status',
  yourNote: 'Your note',
  removed: '(no longer listed)',
  statuses: {
    open: 'Open',
    upheld: 'Action taken',
    dismissed: 'No action',
  } satisfies Record<ReportStatus, string>,
} as const;
