/**
 * What a person is told (issue 20): the kinds of notification, each shown in the bell and, unless
 * turned off in Settings, mailed. Kept apart from the entities so the navigation bar's bell can
 * name them without loading every schema.
 */
export const NOTIFICATION_KINDS = [
  'booking',
  'payment',
  'cancel',
  'handover',
  'message',
  'price-drop',
  'wishlist-sold',
  'seller-verified',
  'payout',
  'saved-search',
  'saved-search-digest',
  'report-decided',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Each kind as the Settings page lists it, after "E-mail me when". */
export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  booking: 'someone books one of my phones',
  payment: 'a buyer pays for one of my phones',
  cancel: 'a booking or a sale of mine is cancelled',
  handover: 'a sale of mine is complete',
  message: 'I get a message',
  'price-drop': 'a phone on my wish list gets cheaper',
  'wishlist-sold': 'a phone on my wish list is sold to someone else',
  'seller-verified': 'my seller account is verified',
  payout: 'money is paid out to me, or a payout fails',
  'saved-search': 'a phone matching a saved search of mine is listed or gets cheaper',
  'saved-search-digest': 'my daily digest of phones matching my saved searches is ready',
  'report-decided': 'a listing or a seller I reported has been looked at',
};
