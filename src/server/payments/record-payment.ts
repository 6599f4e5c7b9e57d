/**
 * Records a payment the provider confirmed, exactly once: in one transaction that locks the
 * phone's row, the order becomes paid and the phone sold. If the phone was sold a moment
 * earlier to someone else, the provider refunds this buyer.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { orders, payments, products } from '../db/schema';
import type { PaymentIntent, PaymentProvider } from './payment-provider';

export class SoldMeanwhileError extends Error {
  constructor() {
    super('This phone was sold to another buyer a moment ago; your payment has been refunded.');
  }
}

export async function recordPayment(
  db: Db,
  provider: PaymentProvider,
  intent: PaymentIntent,
): Promise<string> {
  const outcome = await db.transaction(async (tx) => {
    const [order] = await tx
      .select()
      .from(orders)
      .where(eq(orders.id, intent.orderId))
      .for('update');
    if (!order) return { sold: true as const };
    const [recorded] = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(eq(payments.transactionId, intent.id));
    if (recorded) return { id: recorded.id };
    const [product] = await tx
      .select()
      .from(products)
      .where(eq(products.id, order.productId))
      .for('update');
    if (!product || product.status === 'sold' || order.status === 'paid')
      return { sold: true as const };
    const [payment] = await tx
      .insert(payments)
      .values({
        transactionId: intent.id,
        email: order.email,
        priceCents: intent.amountCents,
        orderId: order.id,
        productName: order.productName,
        productId: order.productId,
      })
      .returning({ id: payments.id });
    await tx.update(orders).set({ status: 'paid' }).where(eq(orders.id, order.id));
    await tx.update(products).set({ status: 'sold' }).where(eq(products.id, product.id));
    return { id: payment?.id as string };
  });
  if ('sold' in outcome) {
    await provider.refund(intent.id);
    throw new SoldMeanwhileError();
  }
  return outcome.id;
}
