/**
 * Records a payment the provider vouches for, exactly once: in one transaction that locks the
 * order's and the phone's rows, the order becomes paid (its money held, its handover code and the
 * hold's deadline set) and the phone sold. If the phone was sold a moment earlier to someone
 * else, the hold on this buyer's card is released (a captured charge would be refunded).
 *
 * The one rule for trusting a payment, whoever reports it (the buyer's record call, the embedded
 * processor's confirmation, Stripe's webhook): only the provider's own answer for the intent's
 * id counts, never what a caller or an event says about it.
 */

import { and, eq, ne } from 'drizzle-orm';
import { next, statusOf } from '../../shared/order-process';
import { orders, payments, products } from '../db/schema';
import { DomainError } from '../domain/domain-error';
import { maySell, newHandoverCode, type Sales } from '../domain/order-process';
import { postHold } from '../ledger/sale-money';
import { notify, wishersOf } from '../notify/notify';
import type { PaymentIntent } from './payment-provider';

export class SoldMeanwhileError extends DomainError {
  constructor() {
    super(
      409,
      'This phone was sold to another buyer a moment ago; the hold on your card has been released.',
    );
  }
}

/** The provider does not vouch for the intent as payment of the order; nothing was changed. */
export class PaymentRefusedError extends DomainError {
  constructor(readonly reason: string) {
    super(400, `transactionId: ${reason}`);
  }
}

const NOT_THIS_ORDER = 'no payment for this order and amount';

/**
 * Why the provider's intent is not payment of `order` (the order its metadata names, locked;
 * undefined when there is none any more), or null when it is: it succeeded, for `forOrderId`
 * when a caller names the order, in dollars, for the order's price, made for the order's buyer.
 */
function refusalOf(
  intent: PaymentIntent,
  order: typeof orders.$inferSelect | undefined,
  forOrderId: string,
): string | null {
  if (intent.status === 'requires_payment_method') return 'the payment has not succeeded';
  if (intent.orderId !== forOrderId || intent.currency !== 'usd') return NOT_THIS_ORDER;
  if (order && (intent.amountCents !== order.priceCents || intent.buyerEmail !== order.email))
    return NOT_THIS_ORDER;
  return null;
}

/**
 * Retrieves the intent from the provider, checks it against the order and records it. Throws
 * PaymentRefusedError (nothing changed, nothing released) or SoldMeanwhileError (released).
 */
export async function recordPayment(
  sales: Sales,
  intentId: string,
  /** The order the caller pays for; a webhook names none and takes the intent's own. */
  forOrderId?: string,
): Promise<string> {
  const { db, provider } = sales;
  const intent = await provider.retrieve(intentId);
  if (!intent) {
    sales.metrics?.payment('refused');
    throw new PaymentRefusedError(NOT_THIS_ORDER);
  }
  type Outcome = { refused: string } | { sold: true } | { id: string; again?: true };
  const outcome = await db.transaction(async (tx): Promise<Outcome> => {
    const [order] = await tx
      .select()
      .from(orders)
      .where(eq(orders.id, intent.orderId))
      .for('update');
    const refused = refusalOf(intent, order, forOrderId ?? intent.orderId);
    if (refused) return { refused };
    // Charged for an order that is gone (its phone or its buyer deleted meanwhile): refunded.
    if (!order) return { sold: true as const };
    const [recorded] = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(eq(payments.transactionId, intent.id));
    if (recorded) return { id: recorded.id, again: true as const };
    const [product] = await tx
      .select()
      .from(products)
      .where(eq(products.id, order.productId))
      .for('update');
    if (!maySell(order, product)) return { sold: true as const };
    if (intent.status === 'canceled') {
      // A hold released because another buyer's payment came first, even if the phone is for
      // sale again by now (that sale was cancelled): paying again takes a new intent. A hold
      // cancelled otherwise (in the provider's dashboard, say) is simply not a payment.
      const [another] = await tx
        .select({ id: payments.id })
        .from(payments)
        .where(and(eq(payments.productId, order.productId), ne(payments.orderId, order.id)))
        .limit(1);
      return another ? { sold: true as const } : { refused: 'the payment was cancelled' };
    }
    // Given back before it was ever recorded (in the provider's dashboard, say): nothing to record.
    if (intent.status === 'refunded') return { refused: 'the payment was refunded' };
    const now = new Date();
    const [payment] = await tx
      .insert(payments)
      .values({
        transactionId: intent.id,
        email: order.email,
        priceCents: intent.amountCents,
        orderId: order.id,
        productName: order.productName,
        productId: order.productId,
        // An intent captured at once (made before holds existed) is the seller's money already.
        money: intent.status === 'succeeded' ? 'captured' : 'held',
        cardFingerprint: intent.cardFingerprint,
      })
      .returning({ id: payments.id });
    await postHold(tx, order);
    await tx
      .update(orders)
      .set({
        stage: next('order', order.stage, 'pay'),
        status: statusOf(next('order', order.stage, 'pay')),
        handoverCode: newHandoverCode(),
        paidAt: now,
        holdExpiresAt: new Date(now.getTime() + sales.holdMs),
      })
      .where(eq(orders.id, order.id));
    await tx
      .update(products)
      .set({ status: next('product', product.status, 'sell') })
      .where(eq(products.id, product.id));
    const wishers = await wishersOf(tx, product.id, order.buyerId);
    await notify(tx, [
      ...(order.sellerId
        ? [
            {
              userId: order.sellerId,
              kind: 'payment' as const,
              text: `${order.userName} paid for your ${order.productName}. Meet them at ${order.location} and enter the code they give you to be paid.`,
              link: `/dashboard/orders/${order.id}`,
            },
          ]
        : []),
      ...wishers.map((userId) => ({
        userId,
        kind: 'wishlist-sold' as const,
        text: `${order.productName} on your wish list was sold to another buyer.`,
        link: `/product/${product.id}`,
      })),
    ]);
    return { id: payment?.id as string };
  });
  // Counted once committed; a payment recorded before (a repeated call) is not counted again.
  if ('refused' in outcome) {
    sales.metrics?.payment('refused');
    throw new PaymentRefusedError(outcome.refused);
  }
  if ('sold' in outcome) {
    if (intent.status === 'succeeded') await provider.refund(intent.id);
    else await provider.cancel(intent.id);
    // Once, by the call that let the money go (a later call finds it let go already).
    if (intent.status === 'requires_capture' || intent.status === 'succeeded')
      sales.metrics?.payment('sold_meanwhile');
    throw new SoldMeanwhileError();
  }
  if (!outcome.again) sales.metrics?.payment('paid');
  return outcome.id;
}
