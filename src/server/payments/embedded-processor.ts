/**
 * The embedded test-mode card processor: no money moves. Payment intents live in our
 * database; cards behave like Stripe's documented test cards. Card numbers are never stored;
 * as Stripe does, a confirmed intent keeps the card's fingerprint (a keyed hash, decision 038).
 */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { luhnValid } from '../../shared/luhn';
import type { Db } from '../db/client';
import { paymentIntents } from '../db/schema';
import type { Fingerprints } from '../trust/fingerprints';
import type { PaymentIntent, PaymentIntentStatus, PaymentProvider } from './payment-provider';

export type Card = { number: string; expMonth: number; expYear: number; cvc: string };
export type CardError = {
  type: 'card_error';
  code: string;
  decline_code?: string;
  message: string;
};

const DECLINES: Record<string, CardError> = {
  '4000000000000002': {
    type: 'card_error',
    code: 'card_declined',
    decline_code: 'generic_decline',
    message: 'Your card was declined.',
  },
  '4000000000009995': {
    type: 'card_error',
    code: 'card_declined',
    decline_code: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  '4000000000000069': {
    type: 'card_error',
    code: 'expired_card',
    message: 'Your card has expired.',
  },
  '4000000000000127': {
    type: 'card_error',
    code: 'incorrect_cvc',
    message: "Your card's security code is incorrect.",
  },
};

/** Why a card cannot pay, or null when it can. */
export function cardProblem(card: Card, now = new Date()): CardError | null {
  const number = card.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !luhnValid(number)) {
    return { type: 'card_error', code: 'invalid_number', message: 'Your card number is invalid.' };
  }
  const year = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
  const expired =
    year < now.getFullYear() || (year === now.getFullYear() && card.expMonth < now.getMonth() + 1);
  if (card.expMonth < 1 || card.expMonth > 12 || expired) {
    return {
      type: 'card_error',
      code: 'invalid_expiry_year',
      message: "Your card's expiration date is in the past.",
    };
  }
  if (!/^\d{3,4}$/.test(card.cvc)) {
    return {
      type: 'card_error',
      code: 'invalid_cvc',
      message: "Your card's security code is invalid.",
    };
  }
  return DECLINES[number] ?? null;
}

const toIntent = (row: typeof paymentIntents.$inferSelect): PaymentIntent => ({
  id: row.id,
  orderId: row.orderId,
  amountCents: row.amountCents,
  currency: row.currency,
  status: row.status,
  buyerEmail: row.email,
  cardFingerprint: row.cardFingerprint,
});

export class EmbeddedPaymentProvider implements PaymentProvider {
  constructor(
    private readonly db: Db,
    /** Fingerprints the confirming card; without it (a test's processor) none is kept. */
    private readonly fingerprints?: Fingerprints,
  ) {}

  async createIntent(input: { orderId: string; amountCents: number; email: string }) {
    const id = `pi_${randomBytes(12).toString('hex')}`;
    const clientSecret = `${id}_secret_${randomBytes(16).toString('hex')}`;
    await this.db.insert(paymentIntents).values({ id, clientSecret, ...input });
    return { id, clientSecret };
  }

  async retrieve(id: string) {
    const [row] = await this.db
      .select()
      .from(paymentIntents)
      .where(eq(paymentIntents.id, id))
      .limit(1);
    return row ? toIntent(row) : null;
  }

  async capture(id: string) {
    await this.step(id, 'requires_capture', 'succeeded');
  }

  async cancel(id: string) {
    await this.step(id, 'requires_capture', 'canceled');
  }

  async refund(id: string) {
    await this.step(id, 'succeeded', 'refunded');
  }

  /**
   * Moves an intent from `from` to `to`; an intent already at `to` is done (a repeated call);
   * any other state is refused, as Stripe refuses to capture a cancelled intent.
   */
  private async step(id: string, from: PaymentIntentStatus, to: PaymentIntentStatus) {
    const [moved] = await this.db
      .update(paymentIntents)
      .set({ status: to, updatedAt: new Date() })
      .where(and(eq(paymentIntents.id, id), eq(paymentIntents.status, from)))
      .returning({ id: paymentIntents.id });
    if (moved) return;
    const intent = await this.retrieve(id);
    if (intent?.status !== to)
      throw new Error(`payment intent ${id} is ${intent?.status ?? 'missing'}, not ${from}`);
  }

  /**
   * Authorises the card for the intent its secret names (the money is held until captured or
   * cancelled); a confirmed intent answers as it is.
   */
  async confirm(clientSecret: string, card: Card): Promise<PaymentIntent | CardError | null> {
    const [row] = await this.db
      .select()
      .from(paymentIntents)
      .where(eq(paymentIntents.clientSecret, clientSecret))
      .limit(1);
    if (!row) return null;
    if (row.status !== 'requires_payment_method') return toIntent(row);
    const problem = cardProblem(card);
    if (problem) return problem;
    const [updated] = await this.db
      .update(paymentIntents)
      .set({
        status: 'requires_capture',
        cardFingerprint: this.fingerprints?.card(card.number) ?? null,
        updatedAt: new Date(),
      })
      .where(and(eq(paymentIntents.id, row.id), eq(paymentIntents.status, row.status)))
      .returning();
    return toIntent(updated ?? row);
  }
}
