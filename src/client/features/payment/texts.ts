/**
 * The payment page's texts beyond the spec's (those stay in @shared/texts): kept with the
 * feature so that the home page's first load does not carry them.
 */
import type { OrderStage } from '@shared/order-process';

type After = Exclude<OrderStage, 'booked' | 'paid'>;

export const PAYMENT_TEXT = {
  paid: (productName: string) => `Your order for ${productName} is paid.`,
  nextStep: (location: string) =>
    `What happens next: the phone is reserved for you, and nobody else can buy it now. Meet the seller at ${location}, the meeting point you gave, to collect it.`,
  myOrders: 'See My Orders',
  /** A sale's badge past the handover wait; one whose money went back never says "paid". */
  stage: {
    completed: 'Handed over',
    disputed: 'Problem reported',
    cancelled: 'Cancelled',
    expired: 'Expired',
    refunded: 'Refunded',
  } satisfies Record<After, string>,
  /** Where a sale is once it is past waiting for the handover. */
  after: {
    completed: (productName: string) => `${productName} was handed over to you.`,
    disputed: (productName: string) => `You reported a problem with ${productName}.`,
    cancelled: (productName: string) =>
      `Your order for ${productName} was cancelled, and the hold on your card was released.`,
    expired: (productName: string) =>
      `Your order for ${productName} expired, and the hold on your card was released.`,
    refunded: (productName: string) => `Your payment for ${productName} was refunded to your card.`,
  } satisfies Record<After, (productName: string) => string>,
  held: 'Your money is held, not paid to the seller: the seller receives it only at the handover, when you give them the handover code after checking the phone. If the sale is cancelled, the hold is released to your card.',
  seeOrder: 'See your order and handover code',
  testMode: 'Test mode: no real money moves.',
  testCards:
    'Pay with 4242 4242 4242 4242; 4000 0000 0000 0002 is declined. Use any future date and any CVC.',
} as const;
