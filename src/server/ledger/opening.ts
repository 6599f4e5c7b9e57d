/**
 * Sales from before the ledger (issue 30): each payment without its `hold` entries is booked once,
 * as its state says it went: held, released, captured (fee as the order has it, none before fees
 * existed), frozen by a report, refunded. Completed sales' shares are available at once: their
 * sellers were never paid, and the payouts pay them. Run at every start (a payment recorded since
 * has its entries, so this finds nothing) and by the demo data after its past sales.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { ledgerTransactions, orders, payments } from '../db/schema';
import {
  postAvailable,
  postCapture,
  postFreeze,
  postGiveBack,
  postHold,
  postRefund,
} from './sale-money';

const HANDED_OVER = new Set(['completed', 'disputed', 'refunded']);

/** Books every earlier sale's money; answers how many sales were booked. */
export async function bookEarlierSales(db: Db, limit = 500): Promise<number> {
  let booked = 0;
  for (;;) {
    const due = await db
      .select({ order: orders, money: payments.money })
      .from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .where(
        sql`not exists (select 1 from ${ledgerTransactions} where ${ledgerTransactions.key} = 'hold:' || ${orders.id})`,
      )
      .limit(limit);
    if (due.length === 0) return booked;
    for (const { order, money } of due) {
      await db.transaction(async (tx) => {
        // At the sale's own dates, so the figures by day and week show when it happened.
        const paidAt = order.paidAt ?? order.createdAt;
        const doneAt = order.completedAt ?? order.endedAt ?? paidAt;
        if (!(await postHold(tx, order, paidAt))) return;
        const given = money === 'refunding' || money === 'refunded';
        if (money === 'releasing' || money === 'released') await postGiveBack(tx, order, doneAt);
        else if (HANDED_OVER.has(order.stage) && order.sellerId && money !== 'held') {
          const fee = order.feeCents ?? 0;
          if (order.feeCents === null)
            await tx
              .update(orders)
              .set({ feeCents: 0 })
              .where(and(eq(orders.id, order.id), sql`${orders.feeCents} is null`));
          await postCapture(tx, order, fee, doneAt);
          await postAvailable(tx, order, doneAt);
          if (order.stage === 'disputed') await postFreeze(tx, order, doneAt);
          if (given) await postRefund(tx, order, order.endedAt ?? doneAt);
        } else if (given) await postGiveBack(tx, order, doneAt);
      });
      booked++;
    }
  }
}
