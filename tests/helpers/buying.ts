/** The calls a buyer makes on the way to paying: a phone for sale, its order, intent and record. */
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { orders, users } from '../../src/server/db/schema';
import type { Account } from './accounts';
import { createProduct } from './factories';
import type { TestApp } from './test-app';

export const PRICE_CENTS = 45_050;

/** Reads the app and the seller when a call runs, so a file can make them in `beforeAll`. */
export function buyingCalls(context: () => { t: TestApp; seller: Account }) {
  const app = () => context().t.app;
  const db = () => context().t.database.db;
  return {
    /** A phone of the seller's, for sale at PRICE_CENTS. */
    async phone() {
      const [record] = await db()
        .select()
        .from(users)
        .where(eq(users.email, context().seller.email));
      return createProduct(db(), record as typeof users.$inferSelect, {
        resellPriceCents: PRICE_CENTS,
      });
    },
    async bookedOrder(buyer: Account, productId: string) {
      const res = await app().inject({
        method: 'POST',
        url: '/api/order',
        headers: buyer.bearer,
        payload: { productId, location: 'Cafe', number: '1' },
      });
      expect(res.statusCode).toBe(200);
      const [order] = await db().select().from(orders).where(eq(orders.email, buyer.email));
      return order as typeof orders.$inferSelect;
    },
    intentFor: (buyer: Account, orderId: string, price: number | string = PRICE_CENTS / 100) =>
      app().inject({
        method: 'POST',
        url: '/api/create-payment-intent',
        headers: buyer.bearer,
        payload: { price, orderId },
      }),
    /** The embedded processor's confirmation, as the payment page sends it (Stripe's test cards). */
    confirmCard: (
      clientSecret: string,
      card: { number: string; expMonth: number; expYear: number; cvc: string },
      email = 'buyer@test.example',
    ) =>
      app().inject({
        method: 'POST',
        url: '/api/test-payments/confirm',
        payload: { clientSecret, card, billingDetails: { name: 'Buyer', email } },
      }),
    recordCall: (buyer: Account, transactionId: string, orderId: string) =>
      app().inject({
        method: 'POST',
        url: '/api/payment',
        headers: buyer.bearer,
        payload: { transactionId, orderId },
      }),
  };
}
