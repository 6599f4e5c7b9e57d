/**
 * The payment page's texts beyond the spec's (those stay in @shared/texts): kept with the
 * feature so that the home page's first load does not carry them.
 */
export const PAYMENT_TEXT = {
  paid: (productName: string) => `Your order for ${productName} is paid.`,
  nextStep: (location: string) =>
    `What happens next: the phone is reserved for you, and nobody else can buy it now. Meet the seller at ${location}, the meeting point you gave, to collect it.`,
  myOrders: 'See My Orders',
  held: 'Your money is held, not paid to the seller: the seller receives it only at the handover, when you give them the handover code after checking the phone. If the sale is cancelled, the hold is released to your card.',
  seeOrder: 'See your order and handover code',
  testMode: 'Test mode: no real money moves.',
  testCards:
    'Pay with 4242 4242 4242 4242; 4000 0000 0000 0002 is declined. Use any future date and any CVC.',
} as const;
