/**
 * How much notification mail one person gets at most (issue 29, decision 037): a buyer booking
 * and deleting in a loop, a seller bouncing a price, or rounds of paying and cancelling must not
 * turn our sender into a harasser. The bell still records every notification; only the mail is
 * held back. Kinds with no cap tell of a sale completed or happen once (a seller verified), and
 * are always mailed; a payment is capped at ten an hour (decision 040). The account mails (a welcome, a
 * password reset) are not notifications: three of each an hour per address, whatever else is
 * sent (src/server/auth/identity-provider.ts), so no flood of these kinds can crowd them out.
 */
import type { NotificationKind } from '../../shared/notifications';

export type MailCap = {
  /** At most this many mails of the kind to one person in `minutes` (counted in the outbox). */
  max: number;
  minutes: number;
  /** The window in words ("an hour"), for the mail that uses up the allowance. */
  per: string;
  /**
   * At most one mail about one page (one phone) in this many minutes: the bell told of it
   * already, whether or not that was mailed.
   */
  onePerPageMinutes?: number;
};

const DAY = 24 * 60;

export const MAIL_CAPS: Record<NotificationKind, MailCap | null> = {
  // A seller's: a loop of bookings and deletes is at most five of each an hour in the inbox.
  booking: { max: 5, minutes: 60, per: 'an hour' },
  cancel: { max: 5, minutes: 60, per: 'an hour' },
  // The conversation shows the rest (and nothing is mailed while a live page is open).
  message: { max: 1, minutes: 10, per: 'in ten minutes' },
  // A price bounced up and down mails a wisher once a day per phone, and ten phones a day at most.
  'price-drop': { max: 10, minutes: DAY, per: 'a day', onePerPageMinutes: DAY },
  // A phone sold, its sale cancelled and sold again: one mail a day per phone.
  'wishlist-sold': { max: 10, minutes: DAY, per: 'a day', onePerPageMinutes: DAY },
  // A seller's: rounds of paying and cancelling (a card hold each) are ten mails an hour at most,
  // more than any seller hands over; the bell and My Sales tell of every payment (decision 040).
  payment: { max: 10, minutes: 60, per: 'an hour' },
  handover: null,
  'seller-verified': null,
  // A seller's payouts: at most one a period, and a failed one waits for the next period.
  payout: { max: 10, minutes: DAY, per: 'a day' },
  // Saved searches (issue 33): a phone is told once (a price drop once more a day); ten phones a
  // day in the inbox at most, the bell has the rest; the digest is one a day by its nature.
  'saved-search': { max: 10, minutes: DAY, per: 'a day', onePerPageMinutes: DAY },
  'saved-search-digest': { max: 1, minutes: 20 * 60, per: 'a day' },
  // A reporter's (issue 34): one mail a decision, ten a day at most; the bell has the rest.
  'report-decided': { max: 10, minutes: DAY, per: 'a day' },
};
