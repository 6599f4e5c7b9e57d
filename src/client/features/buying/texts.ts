/**
 * My Orders' texts beyond the spec's (those stay in @shared/texts): kept with the feature so
 * that the home page's first load does not carry them.
 */
import { formatCount } from '@client/lib/format';
import type { OrderStage } from '@shared/order-process';

export const BUYING_TEXT = {
  soldElsewhere: 'Sold to another buyer',
  phonePage: "The phone's page",
  /** A paid order's action: its sale, where it is handed over, cancelled or reported. */
  openSale: 'Open the sale',
  /** Where a paid order is now, under the spec's 'paid'. */
  stage: {
    booked: 'Booked',
    paid: 'Waiting for the handover',
    completed: 'Handed over',
    cancelled: 'Cancelled, money released',
    expired: 'Expired, money released',
    disputed: 'Problem reported',
    refunded: 'Refunded',
  } satisfies Record<OrderStage, string>,
} as const;

/** The buyer's saved searches (issue 33). */
export const SAVED_SEARCHES_TEXT = {
  title: 'Saved searches',
  /** Opens the search on the search page. */
  open: 'Open',
  edit: 'Edit',
  pause: 'Pause',
  resume: 'Resume',
  delete: 'Delete',
  deleteQuestion: (name: string) => `Delete the saved search “${name}”?`,
  deleted: 'Saved search deleted',
  paused: 'Paused',
  pausedNote: 'Paused: no alerts until you resume it',
  pausedToast: 'Saved search paused',
  resumedToast: 'Saved search resumed',
  updated: 'Saved search updated',
  notUpdated: 'The saved search was not changed.',
  editTitle: 'Edit saved search',
  save: 'Save',
  cancel: 'Cancel',
  everyPhone: 'Every phone',
  /** "12 phones match now", "1,000+ phones match now". */
  matching: (count: number, capped: boolean) =>
    capped
      ? `${formatCount(count)}+ phones match now`
      : count === 1
        ? '1 phone matches now'
        : `${formatCount(count)} phones match now`,
  fresh: (count: number) => `${formatCount(count)} new`,
  freshMeaning: 'since you last opened it',
  emptyTitle: 'No saved searches yet',
  emptyBefore: 'Search for a phone, set the filters you care about, then choose ',
  emptyAfter: '. We tell you when a phone that matches is listed or gets cheaper.',
  emptyLink: 'Search phones',
  saveButton: 'Save this search',
} as const;
