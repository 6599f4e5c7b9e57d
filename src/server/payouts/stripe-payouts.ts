/**
 * Stripe Connect for sellers' payouts (issue 30, decision 042): separate charges and transfers.
 * The buyer's card is charged on our own account (the payment side); a payout then transfers each
 * sale's share to the seller's Express account, one transfer per sale, funded by that sale's
 * charge (`source_transaction`), all of one payout in the transfer group `payout_<id>`.
 *
 * Every money call carries a key derived from the caller's key, so asking again after a crash or
 * a lost answer gets Stripe's first answer instead of a second transfer. Stripe refusing a call
 * (the account cannot receive transfers, the charge has nothing left to transfer) is an answer:
 * `{ ok: false, reason }` in Stripe's words, the money back in the seller's balance. Stripe not
 * answering (a 5xx, a cut connection) is no answer: it throws, and the caller asks again later
 * with the same key.
 */
import { createHash } from 'node:crypto';
import Stripe from 'stripe';
import type { payoutAccounts } from '../db/schema';
import { ServiceUnavailableError } from '../domain/domain-error';
import { askStripe, type StripeSettings, stripeClientOf } from '../payments/stripe-provider';
import type { PayoutProvider, PayoutResult, PayoutSale } from './payout-provider';

export type PayoutAccountStatus = (typeof payoutAccounts.$inferSelect)['status'];

const ACCOUNT_ID = /^acct_[A-Za-z0-9]{1,100}$/;
const UNAVAILABLE = 'Stripe is not answering; the payout is tried again later.';

/**
 * Our view of a connected account: `active` once Stripe lets it receive transfers and pay them
 * out; `pending` while the seller has not finished onboarding or Stripe is still verifying what
 * they gave; `restricted` when Stripe disabled it for another reason (rejected, past due after
 * onboarding, under review).
 */
export function accountStatusOf(account: Stripe.Account): PayoutAccountStatus {
  if (account.payouts_enabled && account.capabilities?.transfers === 'active') return 'active';
  const disabled = account.requirements?.disabled_reason ?? null;
  if (!account.details_submitted || !disabled || disabled === 'requirements.pending_verification')
    return 'pending';
  return 'restricted';
}

/** A refusal: Stripe looked at the call and said no, so nothing moved and asking again says no. */
function isRefusal(err: unknown): err is Stripe.errors.StripeError {
  return (
    err instanceof Stripe.errors.StripeInvalidRequestError ||
    err instanceof Stripe.errors.StripePermissionError
  );
}

/**
 * What each sale's transfer carries: its net; when the payout is less than the sales' nets (money
 * the seller owes is kept back), the difference comes off the last sales. A payout cannot carry
 * more than its sales: each transfer is funded by its own sale's charge.
 */
export function transferAmountsOf(amountCents: number, sales: PayoutSale[]): number[] {
  const total = sales.reduce((sum, sale) => sum + sale.netCents, 0);
  if (sales.length === 0 || amountCents > total || amountCents <= 0)
    throw new Error(
      `a Stripe payout of ${amountCents} cents cannot be carried by its sales' ${total} cents`,
    );
  let keptBack = total - amountCents;
  return sales
    .toReversed()
    .map((sale) => {
      const off = Math.min(keptBack, sale.netCents);
      keptBack -= off;
      return sale.netCents - off;
    })
    .toReversed();
}

export class StripePayoutProvider implements PayoutProvider {
  readonly kind = 'stripe' as const;
  private readonly stripe: Stripe;

  constructor(settings: Pick<StripeSettings, 'secretKey' | 'apiUrl'>) {
    this.stripe = stripeClientOf(settings);
  }

  async send(input: {
    payoutId: string;
    destination: string;
    amountCents: number;
    key: string;
    sales: PayoutSale[];
  }): Promise<PayoutResult> {
    const amounts = transferAmountsOf(input.amountCents, input.sales);
    const made: { orderId: string; transferId: string; amountCents: number }[] = [];
    for (const [i, sale] of input.sales.entries()) {
      const amount = amounts[i] as number;
      if (amount === 0) continue;
      const charge = await this.chargeOf(sale.transactionId);
      if (!charge) {
        return this.refused(
          made,
          input.key,
          `Stripe has no charge for the payment ${sale.transactionId}`,
        );
      }
      const transfer = await this.call(() =>
        this.stripe.transfers.create(
          {
            amount,
            currency: charge.currency,
            destination: input.destination,
            source_transaction: charge.id,
            transfer_group: `payout_${input.payoutId}`,
            metadata: { payoutId: input.payoutId, orderId: sale.orderId },
          },
          { idempotencyKey: `${input.key}:${sale.orderId}` },
        ),
      ).catch((err) => {
        if (isRefusal(err)) return err;
        throw err;
      });
      if (transfer instanceof Stripe.errors.StripeError)
        return this.refused(made, input.key, transfer.message);
      made.push({ orderId: sale.orderId, transferId: transfer.id, amountCents: amount });
    }
    const [first] = made;
    if (!first) throw new Error(`payout ${input.payoutId} made no transfer`);
    return {
      ok: true,
      ref: first.transferId,
      transfers: made.map(({ orderId, transferId }) => ({ orderId, transferId })),
    };
  }

  /**
   * A payout is all or nothing: when Stripe refuses one of its transfers, those it made already
   * are reversed (each with a key of its own, so asking again reverses nothing twice) and the
   * whole payout answers the refusal.
   */
  private async refused(
    made: { orderId: string; transferId: string; amountCents: number }[],
    key: string,
    reason: string,
  ): Promise<PayoutResult> {
    for (const transfer of made) {
      await this.reverse({
        transferId: transfer.transferId,
        amountCents: transfer.amountCents,
        key: `${key}:${transfer.orderId}:undo`,
      });
    }
    return { ok: false, reason };
  }

  async reverse(input: { transferId: string; amountCents: number; key: string }): Promise<void> {
    await this.call(() =>
      this.stripe.transfers.createReversal(
        input.transferId,
        { amount: input.amountCents },
        { idempotencyKey: input.key },
      ),
    ).catch(async (err) => {
      // Refused or unanswered: Stripe's own view of the transfer says whether it is reversed.
      if (!isRefusal(err) && !(err instanceof ServiceUnavailableError)) throw err;
      const transfer = await this.call(() =>
        this.stripe.transfers.retrieve(input.transferId, {}, { maxNetworkRetries: 0 }),
      ).catch(() => null);
      if (transfer && (transfer.reversed || transfer.amount_reversed >= input.amountCents)) return;
      throw err;
    });
  }

  async onboard(input: {
    sellerId: string;
    email: string;
    existing: string | null;
    returnUrl: string;
    refreshUrl: string;
  }): Promise<{ accountId: string; url: string }> {
    const accountId = input.existing ?? (await this.createAccount(input.sellerId, input.email));
    // No key: a link works for minutes, so each call asks for a fresh one.
    const link = await this.call(() =>
      this.stripe.accountLinks.create({
        account: accountId,
        refresh_url: input.refreshUrl,
        return_url: input.returnUrl,
        type: 'account_onboarding',
      }),
    );
    return { accountId, url: link.url };
  }

  /**
   * The account's status as Stripe has it now; null when Stripe does not know it (or it is not
   * ours). Webhook events only say "ask again": their bodies are not trusted.
   */
  async accountStatus(accountId: string): Promise<PayoutAccountStatus | null> {
    if (!ACCOUNT_ID.test(accountId)) return null;
    const account = await this.call(() => this.stripe.accounts.retrieve(accountId)).catch((err) => {
      if (isRefusal(err)) return null;
      throw err;
    });
    return account ? accountStatusOf(account) : null;
  }

  /**
   * An Express account that can receive transfers. Keyed by the seller and address, so a second
   * press of the button (or a lost answer) within Stripe's 24 hours gets the same account.
   */
  private async createAccount(sellerId: string, email: string): Promise<string> {
    const address = createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 16);
    const account = await this.call(() =>
      this.stripe.accounts.create(
        {
          type: 'express',
          email,
          capabilities: { transfers: { requested: true } },
          metadata: { sellerId },
        },
        { idempotencyKey: `connect-account-${sellerId}-${address}` },
      ),
    );
    return account.id;
  }

  /** The charge that paid for a sale (its intent's latest); null when Stripe has none. */
  private async chargeOf(intentId: string): Promise<{ id: string; currency: string } | null> {
    const intent = await this.call(() => this.stripe.paymentIntents.retrieve(intentId)).catch(
      (err) => {
        if (isRefusal(err)) return null;
        throw err;
      },
    );
    const charge = intent?.latest_charge;
    if (!intent || !charge) return null;
    return { id: typeof charge === 'string' ? charge : charge.id, currency: intent.currency };
  }

  /** Stripe's answers pass through; Stripe down, slow or refusing our key is no answer (503). */
  private call<T>(request: () => Promise<T>): Promise<T> {
    return askStripe(request, UNAVAILABLE);
  }
}
