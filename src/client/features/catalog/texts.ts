/**
 * The catalog's texts beyond the spec's (those stay in @shared/texts): kept with the feature so
 * that the home page's first load does not carry them.
 */
export const CATALOG_TEXT = {
  onlyBuyers: 'Only buyers can book or wish-list phones.',
  bookOnlyBuyers: 'Only buyers can book a phone. Sign in with a buyer account to book it.',
  wishListOnlyBuyers: 'Only buyers can keep a wish list.',
  wishListSignIn: 'Sign in to add it',
  signUp: 'Sign up',
  bookedByYou: 'Booked by you',
  payNow: 'Pay now',
  seeOrder: 'See your order',
} as const;
