/**
 * The order process as data: the stages of a sale and the states of the phone it is for, the
 * transitions between them and who may take each. The server enforces it
 * (src/server/domain/order-process.ts holds the guards and runs each transition in one
 * transaction); the client reads it to offer only what can succeed.
 *
 *   booked --pay--> paid --handover--> completed --report--> disputed --refund--> refunded
 *     |              |  \--cancel--> cancelled                        \--close--> completed
 *     cancel         \--expire--> expired       (rate: completed or disputed, once per side)
 *     (deleted)
 *   product: available --sell--> sold --release--> available      available --advertise-->
 *            available --setPhotos--> (its photos and cover changed; a sold phone keeps them)
 *            available --edit--> (its fields changed; a sold phone keeps what its buyer saw)
 *            available --withdraw--> withdrawn --relist--> available  (issue 19; the admin's
 *            block of its IMEI withdraws it too)
 *            available|sold|withdrawn --delete--> (deleted; orders keep their own record)
 *
 * A paid sale is cancelled by its buyer or seller, or by the system once the seller entered
 * HANDOVER_MAX_WRONG_CODES wrong handover codes.
 *
 * Money follows the order: paying holds it (the card is authorised), the handover captures it
 * for the seller, a cancel or an expiry releases the hold, an admin's refund gives a captured
 * amount back. A transition whose target is `null` removes the row. Adding a stage or a
 * transition is one edit here, then its guard in the server's process module.
 */
import type { ORDER_STATUS, PRODUCT_STATUS } from './constants';

export const ORDER_STAGES = [
  'booked',
  'paid',
  'completed',
  'cancelled',
  'expired',
  'disputed',
  'refunded',
] as const;
export type OrderStage = (typeof ORDER_STAGES)[number];
/**
 * The stages in which a sale's two sides may reach each other: paid, and met at the handover. A
 * sale cancelled or expired hides their details again (issue 29).
 */
export const CONTACT_STAGES = [
  'paid',
  'completed',
  'disputed',
  'refunded',
] as const satisfies readonly OrderStage[];
export type OrderState = (typeof ORDER_STATUS)[keyof typeof ORDER_STATUS];
export type ProductState = (typeof PRODUCT_STATUS)[keyof typeof PRODUCT_STATUS];

export const MONEY_STATES = [
  'held',
  'capturing',
  'captured',
  'releasing',
  'released',
  'refunding',
  'refunded',
] as const;
export type MoneyState = (typeof MONEY_STATES)[number];

/**
 * Where a seller's share of a completed sale is (issue 30): pending until the funds hold after the
 * handover ends, frozen by a report, available to pay out, sending, paid out, or refunded.
 */
export const SELLER_MONEY_STATES = [
  'pending',
  'frozen',
  'available',
  'sending',
  'paid',
  'refunded',
] as const;
export type SellerMoneyState = (typeof SELLER_MONEY_STATES)[number];

/** A payout: on its way, arrived, or refused by the bank (its money back in the balance). */
export const PAYOUT_STATUSES = ['sending', 'paid', 'failed'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** Who takes a transition: a side of the sale, the admin, or the clock. */
export type Actor = 'buyer' | 'seller' | 'admin' | 'system';

type Step<S extends string> = { readonly to: S | null; readonly by: readonly Actor[] };
type Graph<S extends string> = Record<S, Readonly<Record<string, Step<S>>>>;

const step = <const S extends string>(to: S, ...by: Actor[]): Step<S> => ({ to, by });
/** A transition that removes the row. */
const removes = (...by: Actor[]): Step<never> => ({ to: null, by });

export const ORDER_PROCESS = {
  order: {
    // From booked, cancel is the buyer's delete (the spec's); a seller cancels only a paid sale.
    booked: { pay: step('paid', 'buyer'), cancel: removes('buyer') },
    paid: {
      handover: step('completed', 'seller'),
      // The system cancels a sale after HANDOVER_MAX_WRONG_CODES wrong codes (issue 29).
      cancel: step('cancelled', 'buyer', 'seller', 'system'),
      expire: step('expired', 'system'),
    },
    completed: { report: step('disputed', 'buyer'), rate: step('completed', 'buyer', 'seller') },
    disputed: {
      refund: step('refunded', 'admin'),
      close: step('completed', 'admin'),
      rate: step('disputed', 'buyer', 'seller'),
    },
    cancelled: {},
    expired: {},
    refunded: {},
  } satisfies Graph<OrderStage>,
  product: {
    available: {
      sell: step('sold', 'system'),
      advertise: step('available', 'seller'),
      stopAdvertising: step('available', 'seller'),
      setPhotos: step('available', 'seller'),
      edit: step('available', 'seller'),
      withdraw: step('withdrawn', 'seller', 'admin'),
      delete: removes('seller', 'admin'),
      // Its risk signals add up past the threshold when listed, edited or relisted (issue 34).
      hold: step('held', 'system'),
    },
    sold: { release: step('available', 'system'), delete: removes('seller', 'admin') },
    // Held back from buyers until the admin clears it; its seller may still edit or withdraw it.
    held: {
      clear: step('available', 'admin'),
      edit: step('held', 'seller'),
      setPhotos: step('held', 'seller'),
      stopAdvertising: step('held', 'seller'),
      withdraw: step('withdrawn', 'seller', 'admin'),
      delete: removes('seller', 'admin'),
    },
    withdrawn: {
      relist: step('available', 'seller'),
      stopAdvertising: step('withdrawn', 'seller'),
      delete: removes('seller', 'admin'),
    },
  } satisfies Graph<ProductState>,
} as const;

type Process = typeof ORDER_PROCESS;
export type Transition<K extends keyof Process> = {
  [S in keyof Process[K]]: keyof Process[K][S];
}[keyof Process[K]];
export type OrderTransition = Transition<'order'>;
export const ORDER_TRANSITIONS = [
  'pay',
  'cancel',
  'handover',
  'expire',
  'report',
  'rate',
  'refund',
  'close',
] as const satisfies readonly OrderTransition[];

/** What each transition does with the money (none where it is absent). */
export const MONEY_STEP: Partial<
  Record<OrderTransition, 'hold' | 'capture' | 'release' | 'refund'>
> = {
  pay: 'hold',
  handover: 'capture',
  cancel: 'release',
  expire: 'release',
  refund: 'refund',
};

const stepOf = <K extends keyof Process>(kind: K, state: keyof Process[K], transition: string) => {
  const steps = ORDER_PROCESS[kind][state] as Record<string, Step<string>>;
  return Object.hasOwn(steps, transition) ? steps[transition] : undefined;
};

/** Whether `transition` leaves `state` in the graph of `kind` (taken by `actor`, when named). */
export function can<K extends keyof Process>(
  kind: K,
  state: keyof Process[K],
  transition: Transition<K>,
  actor?: Actor,
): boolean {
  const found = stepOf(kind, state, transition as string);
  return found !== undefined && (actor === undefined || found.by.includes(actor));
}

/** The state `transition` leads to from `state`; throws off the graph or where the row goes. */
export function next<K extends keyof Process>(
  kind: K,
  state: keyof Process[K],
  transition: Transition<K>,
): keyof Process[K] {
  const target = stepOf(kind, state, transition as string)?.to;
  if (target == null)
    throw new Error(`${String(transition)} does not lead from ${kind} ${String(state)} to a state`);
  return target as keyof Process[K];
}

/** The transitions `actor` may take on an order in `stage` (the client's buttons). */
export function transitionsFor(stage: OrderStage, actor: Actor): OrderTransition[] {
  return (Object.keys(ORDER_PROCESS.order[stage]) as OrderTransition[]).filter((t) =>
    can('order', stage, t, actor),
  );
}

/**
 * How a stage reads at a glance (issue 31): one tone per stage, so that a badge never says "paid"
 * in green beside "Cancelled". `ended` sales gave the money back (released or refunded).
 */
export type StageTone = 'waiting' | 'active' | 'done' | 'problem' | 'ended';
export const STAGE_TONE = {
  booked: 'waiting',
  paid: 'active',
  completed: 'done',
  disputed: 'problem',
  cancelled: 'ended',
  expired: 'ended',
  refunded: 'ended',
} as const satisfies Record<OrderStage, StageTone>;
/** Whether the buyer's money still stands in the sale: paid and neither released nor refunded. */
export const isPaidStage = (stage: OrderStage): boolean =>
  stage === 'paid' || stage === 'completed' || stage === 'disputed';

/** The spec's status of an order in `stage`: paid from the payment on. */
export const statusOf = (stage: OrderStage): OrderState => (stage === 'booked' ? 'unpaid' : 'paid');

/** How long a buyer may report a problem after the handover. */
export const REPORT_WINDOW_DAYS = 7;
/** Wrong handover codes before the code is locked for HANDOVER_LOCK_MINUTES (every fifth). */
export const HANDOVER_MAX_FAILURES = 5;
export const HANDOVER_LOCK_MINUTES = 15;
/**
 * Wrong handover codes in all before the sale is cancelled and the hold released (issue 29):
 * without it a seller had about 3,360 guesses over a 7-day hold, a 0.3 % chance to take the
 * money without a handover; 15 guesses of a million leave 0.0015 %.
 */
export const HANDOVER_MAX_WRONG_CODES = 15;
