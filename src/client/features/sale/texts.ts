/**
 * The sale's texts (not in the spec): an order's page, My Sales and Disputes. Kept with the
 * feature so that no public page's first load carries them.
 */
import type { Sale } from '@shared/entities';
import type { MoneyState, OrderStage, SellerMoneyState } from '@shared/order-process';

type Side = Sale['side'];

export const SALE_TEXT = {
  orderTitle: (productName: string) => `Order: ${productName}`,
  saleTitle: (productName: string) => `Sale: ${productName}`,
  mySales: 'My Sales',
  disputes: 'Disputes',

  stage: {
    booked: 'Booked, not paid yet',
    paid: 'Paid, waiting for the handover',
    completed: 'Handed over',
    cancelled: 'Cancelled',
    expired: 'Expired',
    disputed: 'Problem reported',
    refunded: 'Refunded',
  } satisfies Record<OrderStage, string>,
  money: {
    held: 'Held on the card until the handover',
    capturing: 'Being paid to the seller',
    captured: 'Paid to the seller',
    releasing: "Being released to the buyer's card",
    released: "Released to the buyer's card",
    refunding: 'Being refunded to the buyer',
    refunded: 'Refunded to the buyer',
  } satisfies Record<MoneyState, string>,
  notPaid: 'Not paid yet',
  soldElsewhere: 'This phone was sold to another buyer, so this booking cannot be paid.',
  soldElsewhereShort: 'Sold to another buyer',

  timeline: {
    title: 'What happened',
    booked: 'Booked',
    paid: 'Paid: the money is held',
    completed: 'Handed over: the seller is paid',
    cancelled: (by: 'buyer' | 'seller' | null) =>
      by ? `Cancelled by the ${by}: the hold is released` : 'Cancelled',
    expired: 'Expired: the seller did not confirm the handover in time; the hold is released',
    reported: 'Problem reported',
    refunded: 'Refunded to the buyer',
    closed: 'Problem closed: the seller keeps the money',
    notYet: 'not yet',
    until: (when: string) => `by ${when}`,
  },

  details: 'Details',
  phone: 'Phone',
  price: 'Price',
  stageLabel: 'Stage',
  moneyLabel: 'Money',
  meetingPoint: 'Meeting point',
  transaction: 'Transaction id',
  buyer: 'Buyer',
  seller: 'Seller',
  name: 'Name',
  rating: 'Rating',
  ratings: 'Ratings',
  number: 'Phone number',
  email: 'Email',
  numberAfterPayment: 'Shown once the buyer has paid',

  next: 'What to do now',
  nothingToDo: 'Nothing more to do on this sale.',
  bookedNext:
    'Pay for the phone to reserve it. Your money is held, not paid to the seller, until you meet and hand the phone over.',
  waitForBuyer: 'The buyer has not paid yet. Once they have, you see their phone number here.',
  holdUntil: (when: string) =>
    `If the handover is not confirmed by ${when}, the sale ends and the hold is released automatically.`,
  code: 'Your handover code',
  codeHint: 'Give this code to the seller only after you have checked the phone.',
  /** The phone's IMEI's last four digits (issue 19), to compare at the handover. */
  imeiCheckBuyer: (last4: string) =>
    `Check the IMEI: dial *#06# on the phone; it should end in ${last4}.`,
  imeiCheckSeller: (last4: string) =>
    `The buyer checks the IMEI: dialling *#06# on the phone shows one that ends in ${last4}.`,
  imeiLabel: 'IMEI',
  imeiEndsIn: (last4: string) => `ends in ${last4}`,
  sellerHint:
    'At the meeting, let the buyer check the phone, then enter the six-digit code they give you. The held money is paid to you when the code is right.',

  payFor: (price: string) => `Pay ${price}`,
  cancelSale: 'Cancel sale',
  cancelQuestion: (side: Side) =>
    side === 'buyer'
      ? 'Cancel this sale? The money held on your card is released and the phone goes back on sale.'
      : "Cancel this sale? The buyer's held money is released and the phone goes back on sale.",
  cancelled: 'The sale is cancelled.',

  handover: 'Confirm handover',
  handoverOf: (productName: string) => `Confirm the handover of ${productName}`,
  codeLabel: 'Handover code from the buyer',
  codeFormat: 'Enter the six digits the buyer gives you.',
  lockedUntil: (when: string) => `Too many wrong codes. Try again after ${when}.`,
  handedOver: 'Handover confirmed. The money is paid to you.',

  report: 'Report a problem',
  reportOf: (productName: string) => `Report a problem with ${productName}`,
  reportHint: (days: number) =>
    `Something wrong with the phone? Report it within ${days} days of the handover; an admin looks at it and may refund you.`,
  reasonLabel: 'What is wrong with the phone?',
  send: 'Send',
  reported: 'Your report is sent. An admin will look at it.',
  disputeReason: 'Reported problem',
  disputeOpen: 'An admin is looking at it.',
  disputeRefunded: 'Decided: the buyer is refunded.',
  disputeClosed: 'Decided: closed, the seller keeps the money.',

  rate: (whom: 'buyer' | 'seller') => `Rate the ${whom}`,
  rateWho: (whom: 'buyer' | 'seller', productName: string) => `Rate the ${whom} of ${productName}`,
  stars: 'Stars',
  star: (n: number) => (n === 1 ? '1 star' : `${n} stars`),
  commentLabel: 'Comment (optional)',
  starsRequired: 'Choose from 1 to 5 stars.',
  sendRating: 'Send rating',
  rated: 'Thanks for your rating.',
  yourRating: 'Your rating',
  theirRating: (whom: 'buyer' | 'seller') => `The ${whom}'s rating of you`,
  ratedStars: (stars: number) => `${stars} of 5 stars`,

  refund: 'Refund',
  close: 'Close',
  refundQuestion: (buyer: string, productName: string) =>
    `Refund ${buyer} for ${productName}? The money goes back to the buyer's card.`,
  closeQuestion: (productName: string) =>
    `Close the problem with ${productName}? The seller keeps the money.`,
  refunded: 'The buyer is refunded.',
  closed: 'The problem is closed.',
  decided: { refunded: 'Refunded', closed: 'Closed' },

  /** Issue 30: the marketplace's fee, the seller's share, and where that share is. */
  fee: 'Fee',
  youReceive: 'You receive',
  netOf: (amount: string) => `Net ${amount}`,
  yourMoneyIs: (state: SellerMoneyState) => `Your money: ${SALE_TEXT.sellerMoney[state]}`,
  sellerReceives: 'The seller receives',
  expected: 'expected',
  priceLessFee: (price: string, fee: string) => `${price} less ${fee} fee`,
  sellerMoneyLabel: "Seller's money",
  yourMoney: 'Your money',
  sellerMoney: {
    pending: 'Pending',
    frozen: 'Frozen (reported)',
    available: 'Available',
    sending: 'On its way',
    paid: 'Paid out',
    refunded: 'Refunded',
  } satisfies Record<SellerMoneyState, string>,

  noSales: 'Nobody has booked one of your phones yet. Bookings and sales show here.',
  noDisputes: 'No problems reported.',
  afterPayment: 'After payment',
} as const;
