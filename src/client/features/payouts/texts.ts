/**
 * The Payouts page's texts (issue 30, not in the spec). Kept with the feature so that no public
 * page's first load carries them.
 */
import type { PayoutAccount } from '@shared/entities';
import type { PayoutStatus } from '@shared/order-process';

export const PAYOUTS_TEXT = {
  title: 'Payouts',

  balances: 'Your money',
  pending: 'Pending',
  pendingHint: "Sold and handed over; yours once the buyer's report window ends.",
  available: 'Available',
  availableHint: 'Yours, paid out on the next payout.',
  frozen: 'Frozen',
  frozenHint: 'A buyer reported a problem: held until an admin decides.',
  sending: 'On its way',
  sendingHint: 'Paid out, on its way to your account.',
  paidOut: 'Paid out',
  paidOutHint: 'Arrived in your account, in all.',
  nextPayout: (when: string) => `Next payout: ${when}.`,
  noAccount: 'Add a payout account to be paid',
  noAccountHint: 'Your money stays here, safe, until you do.',
  negative: (amount: string) =>
    `You owe ${amount}: money paid out to you was taken back after a refund. It is recovered from your next sales.`,
  schedule: (schedule: string) => `Payouts run ${scheduleText(schedule)}.`,

  account: 'Payout account',
  status: { active: 'Active', pending: 'Needs details', restricted: 'Restricted' } satisfies Record<
    PayoutAccount['status'],
    string
  >,
  statusHint: {
    active: 'Payouts go to this account.',
    pending: 'Stripe needs more details from you before it can pay you.',
    restricted: 'Stripe has paused payouts to this account: finish its details with Stripe.',
  } satisfies Record<PayoutAccount['status'], string>,
  statusLabel: 'Status',
  addedOn: (when: string) => `Added on ${when}`,
  heldUntil: (when: string) => `Payouts held until ${when}: the account was changed.`,
  addAccount: 'Add a payout account',
  changeAccount: 'Change the payout account',
  routingNumber: 'Routing number',
  routingFormat: 'Enter the 9 digits of the routing number.',
  accountNumber: 'Account number',
  accountFormat: 'Enter the account number: 4 to 17 digits.',
  password: 'Your password',
  passwordHint: 'Asked again to keep your money safe.',
  passwordRequired: 'Enter your password.',
  changeWarning: (hours: number) =>
    `Changing the account asks for your password, e-mails you, and holds payouts for ${hours === 1 ? '1 hour' : `${Number(hours.toFixed(2))} hours`}.`,
  saveAccount: 'Save payout account',
  accountSaved: 'Payout account saved.',
  accountChanged: (when: string) => `Payout account changed. Payouts are held until ${when}.`,
  testBank: 'Test bank: no money moves.',
  testBankHint:
    'Routing number 110000000 with account number 000123456789 is paid. These fail: 000111111116 (no account), 000111111113 (closed), 000222222227 (insufficient funds), 000333333335 and 000444444440.',
  stripeSetUp: 'Set up payouts with Stripe',
  stripeContinue: 'Continue with Stripe',
  stripeHint: 'Stripe asks for your bank details and identity, then brings you back here.',
  stripeGoing: 'Taking you to Stripe…',
  cancel: 'Cancel',

  chart: 'Earnings by week',
  chartSummary: (weeks: number, total: string, best: string | null) =>
    best
      ? `Earnings by week, the last ${weeks} weeks: ${total} in all, the most ${best}.`
      : `Earnings by week, the last ${weeks} weeks: nothing yet.`,
  bestWeek: (amount: string, week: string) => `${amount} in the week of ${week}`,
  chartFigures: 'The figures by week',
  week: 'Week of',
  earned: 'Earned',

  payouts: 'Payouts so far',
  noPayouts: 'No payouts yet.',
  payoutOf: (amount: string, when: string) => `${amount} on ${when}`,
  payoutStatus: {
    sending: 'On its way',
    paid: 'Paid',
    failed: 'Failed',
  } satisfies Record<PayoutStatus, string>,
  failedBecause: (reason: string) =>
    `Not paid: ${reason.replace(/\.?$/, '.')} The money is back in your balance.`,
  arrived: (when: string) => `Arrived ${when}`,
  salesIn: 'Sales in this payout',
} as const;

/** 'daily', 'weekly', 'hourly' or '60s' (PAYOUT_SCHEDULE) as a sentence's end. */
export function scheduleText(schedule: string): string {
  if (schedule === 'daily') return 'every day';
  if (schedule === 'weekly') return 'every Monday';
  if (schedule === 'hourly') return 'every hour';
  const seconds = /^(\d+)s$/.exec(schedule)?.[1];
  return seconds ? `every ${seconds} seconds` : schedule;
}
