/**
 * The catalog's texts beyond the spec's (those stay in @shared/texts): kept with the feature so
 * that the home page's first load does not carry them.
 */
import { formatCount } from '@client/lib/format';

export const CATALOG_TEXT = {
  onlyBuyers: 'Only buyers can book or wish-list phones.',
  bookOnlyBuyers: 'Only buyers can book a phone. Sign in with a buyer account to book it.',
  /** The booking form's script could not be fetched (issue 36: it is fetched when idle). */
  bookingNotLoaded: 'The booking form could not be loaded. Check the connection and try again.',
  wishListOnlyBuyers: 'Only buyers can keep a wish list.',
  wishListSignIn: 'Sign in to add it',
  wishListNotAdded: 'The phone was not added to your wish list.',
  /** On a phone already on the buyer's wish list, instead of Add to Wish List (issue 31). */
  onWishList: 'On your wish list',
  removeFromWishList: 'Remove from wish list',
  wishListNotRemoved: 'The phone was not removed from your wish list.',
  signUp: 'Sign up',
  bookedByYou: 'Booked by you',
  payNow: 'Pay now',
  seeOrder: 'See your order',

  // A phone's page and a seller's page (issue 18).
  breadcrumb: 'Breadcrumb',
  photos: 'Photos',
  showPhoto: (n: number, of: number) => `Show photo ${n} of ${of}`,
  photoOf: (n: number, of: number) => `Photo ${n} of ${of}`,
  previousPhoto: 'Previous photo',
  nextPhoto: 'Next photo',
  soldNotice: 'This phone has been sold.',
  /** The price line of the model's price history (issue 33). */
  thisPhone: 'This phone',
  /** Issue 19: its seller withdrew it. */
  withdrawnNotice: 'This phone is no longer listed.',
  adminWithdraw: 'Withdraw this listing',
  adminWithdrawQuestion:
    'Withdraw this listing? Buyers will no longer see it; its seller can relist it.',
  adminWithdrawn: 'The listing is withdrawn.',
  adminWithdrawFailed: 'The listing was not withdrawn.',
  soldNoticeMore: 'See what else this seller has for sale.',
  aboutSeller: 'About the seller',
  memberSince: 'Member since',
  soldCount: (n: number) => `${n} sold`,
  forSaleCount: (n: number) => `${n} for sale`,
  moreFrom: (name: string) => `More from ${name}`,
  seeAllPhones: (n: number) => `See all ${n} phones for sale`,
  sellerPage: 'Seller page',
  sellerTitle: (name: string) => `${name}, seller`,
  phonesForSale: 'Phones for sale',
  nothingForSale: 'Nothing for sale right now.',
  browsePhones: 'Browse phones',
  showMorePhones: 'Show more phones',
  /** Phones like the one shown (issue 33): below it, or first when it is no longer for sale. */
  similarPhones: 'Similar phones for sale',
  similarInstead: 'This phone is no longer available: similar phones for sale',

  // What tells a buyer a listing can be trusted (issue 19, decision 024).
  imeiChecked: 'IMEI checked',
  imeiCheckedMeaning:
    'The seller gave the phone’s IMEI: it is well formed, on no other listing and not reported stolen here.',
  batteryHealth: 'Battery health',
  batteryHealthValue: (percent: number) => `${percent}%`,
  /** Before the price it dropped from, struck through. */
  was: 'was',
  /** Before the new-phone (original) price, not struck (issue 31): "new: $1,500". */
  newPrice: 'new:',
  /** Said to a screen reader before "new:", so the price is named in full. */
  originalPrice: 'Original price,',
  priceNote: {
    good: {
      label: 'Good price',
      meaning: 'At or below the median price of recent sales of this model and storage.',
    },
    high: {
      label: 'High price',
      meaning: 'Well above the median price of recent sales of this model and storage.',
    },
  },
} as const;

/** The texts of the search and of a brand page's filters and sort (issue 18). */
export const SEARCH_TEXT = {
  heading: (q: string) => (q ? `Phones matching “${q}”` : 'All phones'),
  title: (q: string) => (q ? `Search: ${q}` : 'Search phones'),
  description: 'Used phones for sale: search by model, brand, price, storage, battery and more.',
  /** "24 phones", "1 phone", "1,000+ phones", "No phones match". */
  count: (count: number, capped: boolean) => {
    const n = formatCount(count);
    if (capped) return `${n}+ phones`;
    if (count === 0) return 'No phones match';
    return count === 1 ? '1 phone' : `${n} phones`;
  },
  closeMatches: (q: string) => `Nothing matches “${q}” as typed: these are close matches.`,
  filters: 'Filters',
  closeFilters: 'Close filters',
  filtersButton: (active: number) => (active > 0 ? `Filters (${active})` : 'Filters'),
  apply: 'Show phones',
  clear: 'Clear filters',
  brand: 'Brand',
  ram: 'RAM',
  storage: 'Storage',
  condition: 'Condition',
  price: 'Price ($)',
  minPrice: 'Min',
  maxPrice: 'Max',
  battery: 'Battery',
  minBattery: 'At least (mAh)',
  minBatteryHealth: 'Battery health at least',
  anyBatteryHealth: 'Any',
  batteryHealthChoice: (percent: string) => `${percent}%`,
  location: 'Location',
  locationPlaceholder: 'City or area',
  seller: 'Seller',
  verified: 'Verified sellers only',
  status: 'Status',
  includeSold: 'Include sold phones',
  sortBy: 'Sort by',
  sorts: {
    newest: 'Newest first',
    'price-asc': 'Price: low to high',
    'price-desc': 'Price: high to low',
  },
  showMore: 'Show more phones',
  noMatchHint: 'Try fewer filters, or other words.',
  allPhones: 'See every phone',
  ignored: (what: string[]) =>
    `Some of this link's filters are not ones the search knows, so they are left out: ${what.join(', ')}.`,
  refused: 'The search could not use these filters:',
  startAgain: 'Start again',
} as const;

/** Saving a search from the search or a brand page (issue 33). */
export const SAVE_SEARCH_TEXT = {
  button: 'Save this search',
  title: 'Save this search',
  /** The dialog's script could not be fetched (issue 36: it is fetched when idle). */
  notLoaded: 'The form could not be loaded. Check the connection and try again.',
  save: 'Save',
  cancel: 'Cancel',
  saved: 'Search saved',
  savedLink: 'Saved searches',
  notSaved: 'The search was not saved.',
  onlyBuyers: 'Only buyers can save searches.',
  signIn: 'Please sign in to save this search.',
  signInLink: 'Sign in',
} as const;

/** Reporting a listing or a seller (issue 34): the dialog's texts. */
export const REPORT_TEXT = {
  listingButton: 'Report this listing',
  sellerButton: 'Report this seller',
  listingTitle: 'Report this listing',
  sellerTitle: 'Report this seller',
  intro: (name: string) =>
    `Tell us what is wrong with ${name}. We look at every report; nobody is told who sent it.`,
  reasons: 'Why are you reporting it?',
  chooseReason: 'Choose a reason.',
  note: 'Anything that would help us (optional)',
  noteHint: (max: number) => `Up to ${max} characters. Do not share your phone number or e-mail.`,
  send: 'Send',
  cancel: 'Cancel',
  sent: 'Thanks: your report was sent.',
  notSent: 'Your report was not sent. Try again in a moment.',
} as const;
