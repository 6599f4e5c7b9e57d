/**
 * My Orders' texts beyond the spec's (those stay in @shared/texts): kept with the feature so
 * that the home page's first load does not carry them.
 */
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
