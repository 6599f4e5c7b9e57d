/**
 * The money step a transition decided, done once. A transition writes `capturing`,
 * `releasing` or `refunding` on the payment in its own transaction; this asks the provider for
 * the step (each provider call is idempotent) and then writes where the money is. If the process
 * dies between the provider's answer and our write, the payment stays in its `-ing` state and the
 * timed work asks again: the provider answers "done already" and the write happens then.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { MoneyState } from '../../shared/order-process';
import type { Db } from '../db/client';
import { payments } from '../db/schema';
import type { PaymentMetrics } from '../plugins/metrics';
import type { PaymentProvider } from './payment-provider';

const STEPS = {
  capturing: { ask: 'capture', done: 'captured' },
  releasing: { ask: 'cancel', done: 'released' },
  refunding: { ask: 'refund', done: 'refunded' },
} as const satisfies Partial<Record<MoneyState, { ask: keyof PaymentProvider; done: MoneyState }>>;

type Pending = keyof typeof STEPS;
const PENDING = Object.keys(STEPS) as Pending[];

/** A test of the crash path: the process dies right after the provider did the step. */
const dieAfterProviderStep = process.env.PHONE_MARKET_FAULT === 'exit-after-provider-step';

/** Finishes the money step pending on one payment; false when there was none. */
export async function settlePayment(
  db: Db,
  provider: PaymentProvider,
  paymentId: string,
  metrics?: PaymentMetrics | null,
): Promise<boolean> {
  const [payment] = await db
    .select({ money: payments.money, transactionId: payments.transactionId })
    .from(payments)
    .where(eq(payments.id, paymentId));
  if (!payment || !PENDING.includes(payment.money as Pending)) return false;
  const step = STEPS[payment.money as Pending];
  await provider[step.ask](payment.transactionId);
  if (dieAfterProviderStep) process.kill(process.pid, 'SIGKILL');
  const [done] = await db
    .update(payments)
    .set({ money: step.done, settledAt: new Date() })
    .where(and(eq(payments.id, paymentId), eq(payments.money, payment.money)))
    .returning({ id: payments.id });
  // Counted by the one server whose write moved it (two may settle one payment at once).
  if (done) metrics?.moneyStep(step.done);
  return true;
}

/** The payments whose money step is decided but not yet done (oldest first, at most `limit`). */
export async function unsettledPayments(db: Db, limit = 100): Promise<string[]> {
  const rows = await db
    .select({ id: payments.id })
    .from(payments)
    .where(inArray(payments.money, PENDING))
    .orderBy(payments.seq)
    .limit(limit);
  return rows.map((r) => r.id);
}
