/**
 * Roots of the query keys of data that one feature shows and another changes. Each feature keys
 * its queries under the root, and a change made elsewhere invalidates the root, without one
 * feature importing another.
 */
export const queryRoots = {
  /** Every list of phones: a brand's page, the advertised ones, a seller's own. */
  products: ['products'],
  /** A buyer's orders, which paying for one changes. */
  orders: ['orders'],
  /** Sales after booking (an order's page, My Sales, Disputes), which paying changes too. */
  sales: ['sales'],
  /** Conversations (Messages, a conversation, the menu's unread count), which a message changes. */
  conversations: ['conversations'],
  /** A seller's money (the Payouts page), which a handover or an admin's decision changes. */
  payouts: ['payouts'],
} as const;
