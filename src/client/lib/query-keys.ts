import type { LiveSubject } from '@shared/live';

/**
 * Roots of every query key (decision 043). Each view keys its query under one root, and a root
 * says what its views show: a live event about that subject refreshes every query under every
 * root that shows it (live-refresh.ts), and a change made elsewhere invalidates the root, without
 * one feature importing another. A new view picks the root of what it shows, and is refreshed
 * with the others (query-keys.test.ts holds every key in the client to a root).
 */
export const queryRoots = {
  /** Every phone shown: its page, a brand's page, the search, the advertised, a seller's own. */
  products: ['products'],
  /** A buyer's wish list, each phone with its price and status. */
  wishList: ['wishlist'],
  /** A buyer's orders and bookings, which booking, paying and every later step change. */
  orders: ['orders'],
  /** Sales after booking (an order's page, My Sales, Disputes). */
  sales: ['sales'],
  /** The order a payment is for; its intent is keyed apart (`paymentIntent`). */
  payment: ['payment'],
  /** The card service's secret for one payment: asked for once, never refreshed. */
  paymentIntent: ['payment-intent'],
  /** Conversations (Messages, a conversation, the menu's unread count, reported messages). */
  conversations: ['conversations'],
  /** The bell: the unread count and the latest notifications. */
  notifications: ['notifications'],
  /**
   * A buyer's saved searches (issue 33): each one's matching and new counts, which a phone's
   * change or an alert (a notification) moves; and how many buyers wait for a seller's phone.
   */
  savedSearches: ['saved-searches'],
  /** A person's own reports of listings and sellers (issue 34): a decision is told in the bell. */
  reports: ['reports'],
  /** The mail a person wants: changed only by their own saves. */
  mailSettings: ['mail-settings'],
  /** A seller's money (the Payouts page). */
  payouts: ['payouts'],
  /** The admin's figures (Finance), asked again when shown and stale. */
  finance: ['finance'],
  /** The admin's Overview (issue 35): figures by day, asked again when shown and stale. */
  overview: ['overview'],
  /** The admin's lists of accounts and bans. */
  accounts: ['users'],
  /** Whether the signed-in person is an admin or a (verified) seller. */
  roles: ['roles'],
  /** The admin's blocked IMEIs: changed only by the admin's own calls. */
  imeis: ['imeis'],
  /** The admin's review queue (issue 34): held listings, risky accounts, reports; its decisions. */
  review: ['review'],
  /** The brands: fixed. */
  categories: ['categories'],
  /** The server's settings for pages: fixed while it runs. */
  config: ['config'],
  /** The price guide's figures: comparable sales over months, not a moment's change. */
  priceGuide: ['price-guide'],
} as const;

export type QueryRoot = keyof typeof queryRoots;

/**
 * What each root's views show, as the live stream names it (src/shared/live.ts). Empty: nothing
 * the stream tells changes it (the person's own calls refresh it, or it is fixed).
 */
export const ROOT_SHOWS: Record<QueryRoot, readonly LiveSubject[]> = {
  // A phone's card and page show its seller's verified badge.
  products: ['product', 'account'],
  wishList: ['product'],
  // An order shows its phone's status ("sold to someone else").
  orders: ['order', 'product'],
  sales: ['order', 'product'],
  payment: ['order'],
  paymentIntent: [],
  // Contact details show in a conversation once its sale is paid.
  conversations: ['conversation', 'order'],
  notifications: ['notification'],
  savedSearches: ['notification', 'product'],
  reports: ['notification'],
  mailSettings: [],
  payouts: ['money', 'order'],
  finance: ['money'],
  // Listings, sales, accounts and reports of past days: read again when shown and stale.
  overview: [],
  accounts: ['account'],
  roles: ['account'],
  imeis: [],
  // No live subject tells the admin of a new listing, signal or report: the queue is read again
  // when shown and stale, on focus, and after the admin's own decisions.
  review: [],
  categories: [],
  config: [],
  priceGuide: [],
};
