/**
 * The admin's Review queue texts (issue 34, not in the spec). Kept with the feature so that no
 * other page's first load carries them.
 */
import type { ReviewAction, ReviewTarget } from '@shared/risk-names';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export const REVIEW_TEXT = {
  title: 'Review queue',
  views: 'Review queue views',
  queue: 'To review',
  queueCount: (n: number) => `To review (${n})`,
  decisions: 'Decisions',
  empty: 'Nothing to review',
  emptyHint: 'Held listings, risky accounts and reported listings show here, riskiest first.',
  listLabel: 'Listings and accounts to review, riskiest first',

  kind: { listing: 'Listing', account: 'Account' } as const,
  score: (score: number) => `Risk score ${score}`,
  held: 'Held',
  heldHint: 'Not shown to buyers until cleared.',
  signals: 'Why it is here',
  points: (weight: number) => count(weight, 'point', 'points'),

  photos: 'Photos',
  photoMatches: 'Photos matching another listing',
  thisListing: 'This listing',
  matchesAnother: 'Matches a photo of another listing',
  photoAlt: (title: string, n: number) => `Photo ${n} of ${title}`,
  matchedAlt: (title: string, n: number) =>
    `The photo of another listing that matches photo ${n} of ${title}`,
  sameness: (distance: number) =>
    distance === 0
      ? 'The same picture'
      : `Nearly the same picture (${count(distance, 'bit', 'bits')} of their fingerprints differ)`,
  openOther: 'Open the other listing',
  openOtherFor: (n: number) => `(its photo matching photo ${n})`,
  otherGone: 'The other listing is gone',

  price: 'Price',
  guidePrice: "Guide's price",
  ofGuide: (percent: number) => `${percent}% of the guide`,
  noGuide: 'No guide price for this phone',

  seller: 'Seller',
  account: 'Account',
  history: (h: { joined: string; listings: number; sales: number; disputes: number }) =>
    `Joined ${h.joined} · ${count(h.listings, 'listing', 'listings')} · ${count(h.sales, 'sale', 'sales')} · ${count(h.disputes, 'dispute', 'disputes')}`,

  reports: (n: number) => `Reports (${n})`,
  reportBy: (name: string, when: string) => `By ${name}, ${when}`,

  clear: 'Clear',
  clearHeld: 'Clear: put on sale',
  withdraw: 'Withdraw listing',
  ban: 'Ban account',
  dismiss: 'Dismiss',
  dismissWhose: (reporter: string, title: string) => `the report by ${reporter} on ${title}`,
  banWhose: (seller: string) => `of ${seller}`,
  withdrawQuestion: (title: string) => `Withdraw ${title}?`,
  withdrawMeans: 'The listing comes off sale for good and the reports on it are upheld.',
  banQuestion: (name: string, email: string) => `Ban ${name} (${email})?`,
  banMeans:
    'This deletes the account and bans its e-mail, addresses, cards and IMEIs. All its listings go, and the reports on it are upheld.',
  note: 'Note for the record (optional)',
  cancel: 'Cancel',

  done: {
    clear: (subject: string) => `${subject} is cleared.`,
    withdraw: (subject: string) => `${subject} is withdrawn.`,
    ban: (subject: string) => `${subject} is banned and the account deleted.`,
    dismiss: () => 'The report is dismissed.',
  } satisfies Record<ReviewAction, (subject: string) => string>,

  column: {
    when: 'When',
    who: 'Who',
    what: 'What',
    on: 'On',
    note: 'Note',
  },
  recordAction: {
    clear: 'Cleared',
    withdraw: 'Withdrew',
    ban: 'Banned',
    dismiss: 'Dismissed',
  } satisfies Record<ReviewAction, string>,
  recordTarget: {
    listing: 'Listing',
    account: 'Account',
    report: 'Report',
  } satisfies Record<ReviewTarget, string>,
  noRecords: 'No decision yet.',
} as const;
