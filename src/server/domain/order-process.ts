/**
 * The order process (src/shared/order-process.ts is its graph): who may book, pay for, hand
 * over, cancel, report, rate, refund, advertise, edit, withdraw or delete, and the transitions
 * themselves.
 * Each guard refuses with the DomainError its answer carries; routes, the payment recorder and
 * the timed work call these, never restate them.
 *
 * Every transition that moves money runs in one transaction that locks the order (then the
 * phone), checks the stage, writes the new stage and the payment's decided money step
 * (`capturing`, `releasing`, `refunding`); the provider is asked after the commit
 * (payments/settle.ts), and again by the timed work if a crash came between.
 */

import { randomInt, timingSafeEqual } from 'node:crypto';
import { and, asc, eq, exists, lt, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { productEditSchema, productInputSchema } from '../../shared/api';
import { type FeeRule, feeCents } from '../../shared/fees';
import {
  type Actor,
  can,
  HANDOVER_LOCK_MINUTES,
  HANDOVER_MAX_FAILURES,
  HANDOVER_MAX_WRONG_CODES,
  type MoneyState,
  next,
  type OrderTransition,
  REPORT_WINDOW_DAYS,
} from '../../shared/order-process';
import { TEXT } from '../../shared/texts';
import type { Db, Tx } from '../db/client';
import { blockedImeis, disputes, orders, payments, products, ratings, users } from '../db/schema';
import type { LoosePhotos } from '../images/loose-photos';
import type { ImeiVault } from '../imei/imei-vault';
import {
  postCapture,
  postFreeze,
  postGiveBack,
  postRefund,
  postUnfreeze,
} from '../ledger/sale-money';
import { notify, wishersOf } from '../notify/notify';
import type { PaymentProvider } from '../payments/payment-provider';
import { settlePayment } from '../payments/settle';
import type { Caller } from '../plugins/auth';
import type { PaymentMetrics } from '../plugins/metrics';
import { deleteOrderIn, findOrder, insertOrder, type OrderRow } from '../repositories/buying';
import { findBlockedImei, insertBlockedImei, moveListingsOfImei } from '../repositories/imeis';
import { dollars, toCents } from '../repositories/money';
import {
  advertiseProduct,
  deleteProduct,
  findProduct,
  insertProduct,
  type ProductRow,
  setProductStatus,
  unadvertiseProduct,
  updateProductFields,
  updateProductPhotos,
} from '../repositories/products';
import { isArmsLength } from '../repositories/trust';
import { findUserByEmail } from '../repositories/users';
import { assessListing } from '../risk/assess';
import { DomainError } from './domain-error';

const NOT_YOURS = 'You may only act on your own account';
type ProductInputData = z.output<typeof productInputSchema>;
type ProductEditData = z.output<typeof productEditSchema>;
const DAY_MS = 24 * 60 * 60 * 1000;

/** What the process needs besides the database: the card provider and how long a hold lasts. */
export type Sales = {
  db: Db;
  provider: PaymentProvider;
  holdMs: number;
  /** Where a money step the provider could not do now is noted (the timed work retries it). */
  log?: { warn: (details: object, message: string) => void };
  /** Counts payments by outcome and the money steps done (null when metrics are off). */
  metrics?: PaymentMetrics | null;
  /** The marketplace's fee on a completed sale (MARKETPLACE_FEE_PERCENT, _MIN_CENTS). */
  fees: FeeRule;
  /** How long after the handover the seller's share stays pending (FUNDS_HOLD_HOURS). */
  fundsHoldMs: number;
};

function found<T>(row: T | undefined, what: string): T {
  if (!row) throw DomainError.notFound(`No such ${what}`);
  return row;
}

/** The side of the sale `caller` is on (admins are neither unless they are), or null. */
export type Side = 'buyer' | 'seller' | 'admin';

export function sideOf(order: OrderRow, caller: Caller): Side | null {
  if (order.buyerId === caller.id) return 'buyer';
  if (order.sellerId === caller.id) return 'seller';
  if (caller.isAdmin) return 'admin';
  return null;
}

/** The transitions the stage offers `actor`, or the answer why not (wrong stage, wrong person). */
function mayTake(order: OrderRow, actor: Actor | null, transition: OrderTransition): void {
  if (!actor) throw DomainError.forbidden(NOT_YOURS);
  if (!can('order', order.stage, transition))
    throw DomainError.conflict(STAGE_REFUSALS[transition](order.stage));
  if (!can('order', order.stage, transition, actor))
    throw DomainError.forbidden(`Only the ${whoMay(order, transition)} may do this`);
}

const whoMay = (order: OrderRow, transition: OrderTransition) =>
  (['buyer', 'seller', 'admin'] as const)
    .filter((a) => can('order', order.stage, transition, a))
    .join(' or ');

const STAGE_REFUSALS: Record<OrderTransition, (stage: string) => string> = {
  pay: (stage) => (stage === 'paid' ? 'This order is already paid' : `This order is ${stage}`),
  cancel: (stage) =>
    stage === 'completed' || stage === 'disputed' || stage === 'refunded'
      ? 'The phone was handed over; report a problem instead of cancelling'
      : `This order is already ${stage}`,
  handover: (stage) =>
    stage === 'booked' ? 'The buyer has not paid yet' : `This sale is already ${stage}`,
  expire: (stage) => `This sale is ${stage}`,
  report: (stage) =>
    stage === 'disputed' || stage === 'refunded'
      ? 'A problem was reported for this sale already'
      : 'A problem can be reported only after the handover',
  rate: () => 'A sale can be rated only after the handover',
  refund: () => 'Only a reported problem can be refunded',
  close: () => 'Only a reported problem can be closed',
};

// The guards of the spec's calls.

export function mayBook(caller: Caller, product: ProductRow): void {
  // Held for review (issue 34): no phone to a buyer, as its page says (404, not "sold").
  if (product.status === 'held' && product.sellerEmail !== caller.email)
    throw DomainError.notFound('No such product');
  if (product.sellerEmail === caller.email)
    throw DomainError.forbidden('You cannot book your own phone');
  if (product.status === 'withdrawn')
    throw DomainError.conflict('This phone is no longer listed: its seller withdrew it');
  if (!can('product', product.status, 'sell'))
    throw DomainError.conflict('This phone is already sold');
}

/** A payment may start for a booked order of a phone still for sale, at the order's price. */
export function mayPay(order: OrderRow, product: ProductRow | undefined, priceCents: number) {
  mayTake(order, 'buyer', 'pay');
  if (!product || !can('product', product.status, 'sell'))
    throw DomainError.conflict('This phone is no longer for sale');
  // The amount is the order's; a client that asks for another is refused, never charged it.
  if (priceCents !== order.priceCents)
    throw DomainError.badRequest("price: does not match the order's price");
}

/** Whether a payment of `order` can make its phone sold now (else the hold is released). */
export function maySell(order: OrderRow, product: ProductRow | undefined): product is ProductRow {
  return (
    product !== undefined &&
    can('order', order.stage, 'pay') &&
    can('product', product.status, 'sell')
  );
}

export function mayAdvertise(caller: Caller, product: ProductRow): void {
  if (product.sellerEmail !== caller.email)
    throw DomainError.forbidden('You may only advertise your own products');
  if (!can('product', product.status, 'advertise'))
    throw DomainError.conflict(
      product.status === 'held'
        ? 'This phone is under review; it can be advertised once it is cleared'
        : 'A sold product cannot be advertised',
    );
}

export function maySetPhotos(caller: Caller, product: ProductRow): void {
  if (product.sellerEmail !== caller.email)
    throw DomainError.forbidden('You may only change the photos of your own products');
  // The buyer paid for the phone as its photos showed it: a sold phone keeps them.
  if (!can('product', product.status, 'setPhotos'))
    throw DomainError.conflict('A sold phone keeps its photos; they can no longer be changed');
}

export function mayDelete(caller: Caller, product: ProductRow): void {
  if (product.sellerEmail !== caller.email && !caller.isAdmin)
    throw DomainError.forbidden('You may only delete your own products');
}

// Reading an order.

/**
 * The order with this id if the caller's account placed it: 404 when there is none, 403 when it
 * is another's (an earlier account of the same address included).
 */
export async function ownOrder(db: Db, caller: Caller, id: string): Promise<OrderRow> {
  const order = found(await findOrder(db, id), 'order');
  if (order.buyerId !== caller.id) throw DomainError.forbidden(NOT_YOURS);
  return order;
}

/** The order if the caller is its buyer, its seller, or an admin; with the caller's side. */
export async function orderSeenBy(db: Db, caller: Caller, id: string) {
  const order = found(await findOrder(db, id), 'order');
  const side = sideOf(order, caller);
  if (!side) throw DomainError.forbidden(NOT_YOURS);
  return { order, side };
}

// The transitions of the spec's calls.

/** Books a phone at its resale price; the server fills every field it knows from its records. */
export async function book(
  db: Db,
  caller: Caller,
  input: { productId: string; location: string; number: string },
): Promise<string> {
  const product = found(await findProduct(db, input.productId), 'product');
  mayBook(caller, product);
  const seller = await findUserByEmail(db, product.sellerEmail);
  return db.transaction(async (tx) => {
    const booked = await insertOrder(tx, {
      buyerId: caller.id,
      email: caller.email,
      userName: caller.name,
      productId: product.id,
      productName: product.modelName,
      storage: product.storage,
      condition: product.condition,
      image: product.image,
      priceCents: product.resellPriceCents,
      location: input.location,
      number: input.number,
      sellerId: seller?.id ?? null,
      sellerEmail: product.sellerEmail,
      sellerName: product.sellerName,
      sellerNumber: product.sellerNumber,
    });
    if (!booked) throw DomainError.conflict(TEXT.toast.alreadyBooked);
    if (seller)
      await notify(tx, [
        {
          userId: seller.id,
          kind: 'booking',
          text: `${caller.name} booked your ${product.modelName} for ${dollars(product.resellPriceCents)}. They pay next; you are told when they do.`,
          link: '/dashboard/mysales',
        },
      ]);
    return booked;
  });
}

/** The buyer's booked order a payment may start for, at `price` dollars. */
export async function orderToPay(
  db: Db,
  caller: Caller,
  orderId: string,
  price: number,
): Promise<OrderRow> {
  const order = await ownOrder(db, caller, orderId);
  mayPay(order, await findProduct(db, order.productId), toCents(price));
  return order;
}

/** The buyer cancels a booked order (the spec's delete). */
export async function cancelOrder(db: Db, caller: Caller, orderId: string): Promise<number> {
  const order = await ownOrder(db, caller, orderId);
  if (order.stage !== 'booked') throw DomainError.conflict('A paid order cannot be deleted');
  mayTake(order, 'buyer', 'cancel');
  return db.transaction(async (tx) => {
    const deleted = await deleteOrderIn(tx, order.id, order.stage);
    if (deleted > 0 && order.sellerId)
      await notify(tx, [
        {
          userId: order.sellerId,
          kind: 'cancel',
          text: `${order.userName} cancelled their booking of your ${order.productName}.`,
          link: '/dashboard/mysales',
        },
      ]);
    return deleted;
  });
}

/** Whether the admin blocked the IMEI of this hash (reported stolen). */
async function imeiBlocked(db: Db | Tx, hash: string): Promise<boolean> {
  const [row] = await db
    .select({ id: blockedImeis.id })
    .from(blockedImeis)
    .where(eq(blockedImeis.imeiHash, hash))
    .limit(1);
  return row !== undefined;
}

/**
 * The listing of this IMEI that is live: for sale, or sold with its sale still in progress (paid,
 * not yet handed over, so it may come back on sale).
 */
async function liveListingOf(db: Db | Tx, hash: string) {
  const [row] = await db
    .select({ id: products.id })
    .from(products)
    .where(
      and(
        eq(products.imeiHash, hash),
        or(
          eq(products.status, 'available'),
          // Held for review (issue 34): still this IMEI's listing, not free to list again.
          eq(products.status, 'held'),
          and(
            eq(products.status, 'sold'),
            exists(
              db
                .select({ id: orders.id })
                .from(orders)
                .where(and(eq(orders.productId, products.id), eq(orders.stage, 'paid'))),
            ),
          ),
        ),
      ),
    )
    .limit(1);
  return row;
}

export const IMEI_LISTED = 'IMEI: This phone is already listed';
export const IMEI_BLOCKED = 'IMEI: this phone was reported stolen and cannot be listed';
export const IMEI_MISSING =
  'IMEI: this listing has none; list the phone anew with its IMEI (dial *#06# to see it)';

/**
 * Why a phone of this IMEI hash could not be listed now (blocked, or on a live listing), in the
 * form's words, or null. A preview (bulk listing, decision 057) tells it before the seller lists;
 * `listPhone` decides again, under the IMEI's lock.
 */
export async function imeiRefusal(db: Db | Tx, hash: string): Promise<string | null> {
  if (await imeiBlocked(db, hash)) return IMEI_BLOCKED;
  if (await liveListingOf(db, hash)) return IMEI_LISTED;
  return null;
}

/**
 * Lists a seller's phone. Its IMEI, when given, must be on no live listing (any seller's) and
 * not blocked; it is kept hashed and sealed (decision 024).
 */
export async function listPhone(
  db: Db,
  { vault, photos }: { vault: ImeiVault; photos: LoosePhotos },
  caller: Caller,
  input: ProductInputData,
): Promise<string> {
  const { imei, ...fields } = input;
  const kept = imei === undefined ? undefined : vault.keep(imei);
  return db.transaction(async (tx) => {
    await photos.keep(tx, fields.photos ?? [fields.image]);
    if (kept) {
      await lockImei(tx, kept.hash);
      if (await imeiBlocked(tx, kept.hash)) throw DomainError.conflict(IMEI_BLOCKED);
      if (await liveListingOf(tx, kept.hash)) throw DomainError.conflict(IMEI_LISTED);
    }
    const id = await insertProduct(tx, fields, caller, kept);
    // Another listing of the same IMEI won the race between the check and the insert.
    if (!id) throw DomainError.conflict(IMEI_LISTED);
    // Its risk signals, in the same transaction: a listing they hold is never seen for sale.
    await assessListing(tx, id);
    return id;
  });
}

/**
 * Holds the IMEI of this hash for the rest of `tx` (a transaction-scoped advisory lock): a
 * listing, a relisting and a block of one IMEI take turns, so a phone cannot go live beside
 * the admin's block of it, whichever server each request reached.
 */
async function lockImei(tx: Tx, hash: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${hash}, 0))`);
}

const BLOCKED_SINCE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

/** Named by the form's label, dated as the pages date things ('Nov 25, 2026'). */
export const IMEI_ALREADY_BLOCKED = (since: Date) =>
  `IMEI: this IMEI is already blocked (since ${BLOCKED_SINCE.format(since)})`;

/**
 * The admin blocks an IMEI reported stolen (decision 024): only its keyed hash and last four digits
 * are kept, and in the same transaction every listing of it for sale is withdrawn, whoever's it is
 * (each with the product graph's `withdraw`). A phone sold with its sale in progress is left as it
 * is: the sale goes on, and if it is cancelled the phone comes back withdrawn (`releasePhone`).
 * Blocking an IMEI blocked already is a conflict (409), so the admin learns it was.
 */
export async function blockImei(
  db: Db,
  vault: ImeiVault,
  caller: Caller,
  imei: string,
  reason: string,
): Promise<{ withdrawnCount: number }> {
  if (!caller.isAdmin) throw DomainError.forbidden('Only an admin can block an IMEI');
  const { hash, last4 } = vault.keep(imei);
  return db.transaction(async (tx) => {
    await lockImei(tx, hash);
    const id = await insertBlockedImei(tx, { hash, last4, reason, blockedBy: caller.id });
    if (!id) {
      const existing = await findBlockedImei(tx, hash);
      throw DomainError.conflict(IMEI_ALREADY_BLOCKED(existing?.blockedAt ?? new Date()));
    }
    let withdrawnCount = 0;
    // For sale, or held for review (issue 34): either is withdrawn.
    for (const from of ['available', 'held'] as const)
      withdrawnCount += await moveListingsOfImei(tx, hash, from, next('product', from, 'withdraw'));
    return { withdrawnCount };
  });
}

/** Advertises the seller's unsold phone; false when it was advertised already. */
export async function advertise(db: Db, caller: Caller, productId: string): Promise<boolean> {
  const product = found(await findProduct(db, productId), 'product');
  mayAdvertise(caller, product);
  return advertiseProduct(db, product.id);
}

/**
 * The seller sets their unsold phone's photos in order; the first becomes its cover. The phone is
 * locked as a payment locks it, so a phone sold meanwhile is refused, never changed after.
 */
export async function setPhotos(
  db: Db,
  loose: LoosePhotos,
  caller: Caller,
  productId: string,
  photos: string[],
): Promise<void> {
  await db.transaction(async (tx) => {
    const [product] = await tx
      .select()
      .from(products)
      .where(eq(products.id, productId))
      .for('update');
    const { photos: before } = found(product, 'product');
    maySetPhotos(caller, found(product, 'product'));
    await loose.keep(tx, photos);
    await updateProductPhotos(tx, productId, photos);
    await assessListing(tx, productId);
    // A photo taken off the phone is removed a day later unless something still shows it.
    await loose.note(
      tx,
      before.filter((url) => !photos.includes(url)),
    );
  });
}

// Managing a listing (issue 19): edit, withdraw, relist, stop advertising.

/** Why a listing in `status` cannot take `transition`, in words its seller understands. */
const LISTING_REFUSALS = {
  edit: {
    sold: 'A sold phone can no longer be edited: its buyer paid for it as it was listed',
    withdrawn: 'Relist this phone before editing it',
  },
  withdraw: {
    sold: 'A sold phone cannot be withdrawn; cancel its sale in My Sales first',
    withdrawn: 'This phone is already withdrawn',
  },
  relist: {
    available: 'This phone is listed already',
    sold: 'A sold phone cannot be relisted',
  },
  stopAdvertising: { sold: 'A sold phone is no longer advertised' },
} as const;

/** The seller's own listing may take `transition` in its state (else 403 or 409). */
function mayManage(
  caller: Caller,
  product: ProductRow,
  transition: keyof typeof LISTING_REFUSALS,
): void {
  const byAdmin = caller.isAdmin && can('product', product.status, transition, 'admin');
  if (product.sellerEmail !== caller.email && !byAdmin)
    throw DomainError.forbidden('You may only manage your own products');
  if (!can('product', product.status, transition)) {
    const refusals: Partial<Record<string, string>> = LISTING_REFUSALS[transition];
    throw DomainError.conflict(refusals[product.status] ?? `This phone is ${product.status}`);
  }
}

/** The product locked for the rest of `tx`, as a payment locks it. */
async function lockedProduct(tx: Tx, id: string): Promise<ProductRow> {
  const [product] = await tx.select().from(products).where(eq(products.id, id)).for('update');
  return found(product, 'product');
}

/**
 * The seller edits their phone while it is for sale (not its IMEI, seller or photos). Locked as a
 * payment locks it: a phone sold meanwhile is refused, never changed after its buyer paid. A
 * withdrawn phone is relisted first (the graph's `edit` is from `available` only).
 */
export async function editListing(
  db: Db,
  caller: Caller,
  productId: string,
  input: ProductEditData,
): Promise<void> {
  await db.transaction(async (tx) => {
    const product = await lockedProduct(tx, productId);
    mayManage(caller, product, 'edit');
    await updateProductFields(tx, product, input);
    const { held } = await assessListing(tx, product.id);
    const price = toCents(input.resellPrice);
    // A held phone is seen by nobody: nobody is told it is cheaper.
    if (!held && price < product.resellPriceCents) {
      const wishers = await wishersOf(tx, product.id);
      await notify(
        tx,
        wishers.map((userId) => ({
          userId,
          kind: 'price-drop' as const,
          text: `${input.modelName} on your wish list is now ${dollars(price)}, down from ${dollars(product.resellPriceCents)}.`,
          link: `/product/${product.id}`,
        })),
      );
    }
  });
}

/** The seller (or an admin) takes a phone for sale off the market, keeping it to relist. */
export async function withdrawListing(db: Db, caller: Caller, productId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const product = await lockedProduct(tx, productId);
    mayManage(caller, product, 'withdraw');
    await setProductStatus(tx, product.id, next('product', product.status, 'withdraw'));
  });
}

/**
 * The seller puts a withdrawn phone back on sale, unless its IMEI was blocked meanwhile or is on
 * another live listing (409, named by the form's label).
 */
export async function relistListing(db: Db, caller: Caller, productId: string): Promise<void> {
  try {
    await db.transaction(async (tx) => {
      const product = await lockedProduct(tx, productId);
      mayManage(caller, product, 'relist');
      // A listing from before every listing needed its IMEI comes back only listed anew, with
      // one: relisting it would pass the blocks on stolen phones (issue 29).
      if (product.imeiHash === null) throw DomainError.conflict(IMEI_MISSING);
      await lockImei(tx, product.imeiHash);
      if (await imeiBlocked(tx, product.imeiHash)) throw DomainError.conflict(IMEI_BLOCKED);
      if (await liveListingOf(tx, product.imeiHash)) throw DomainError.conflict(IMEI_LISTED);
      await setProductStatus(tx, product.id, next('product', product.status, 'relist'));
      await assessListing(tx, product.id);
    });
  } catch (error) {
    // Another listing of the same IMEI went live between the check and the write.
    if (isUniqueViolation(error)) throw DomainError.conflict(IMEI_LISTED);
    throw error;
  }
}

/** Whether `error` (or what it wraps) is PostgreSQL's unique violation. */
function isUniqueViolation(error: unknown): boolean {
  for (let e = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause)
    if ((e as { code?: unknown }).code === '23505') return true;
  return false;
}

/** The seller stops advertising their phone; answers 0 when it was not advertised. */
export async function stopAdvertising(db: Db, caller: Caller, productId: string): Promise<number> {
  const product = found(await findProduct(db, productId), 'product');
  if (product.sellerEmail !== caller.email)
    throw DomainError.forbidden('You may only stop advertising your own products');
  mayManage(caller, product, 'stopAdvertising');
  return unadvertiseProduct(db, product.id);
}

/**
 * The seller (or an admin) takes a phone off the market; orders keep their own record. A phone
 * with a sale in progress (paid, not yet handed over) stays until that sale is cancelled.
 */
export async function deleteListing(
  db: Db,
  loose: LoosePhotos,
  caller: Caller,
  productId: string,
): Promise<number> {
  const product = found(await findProduct(db, productId), 'product');
  mayDelete(caller, product);
  return db.transaction(async (tx) => {
    // The phone locked first, as a payment locks it: a payment landing meanwhile either comes
    // before (and is seen here) or after (and finds the phone gone, so its hold is released).
    const [locked] = await tx
      .select({ id: products.id })
      .from(products)
      .where(eq(products.id, product.id))
      .for('update');
    if (!locked) return 0;
    const [inProgress] = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.productId, product.id), eq(orders.stage, 'paid')))
      .limit(1);
    if (inProgress)
      throw DomainError.conflict(
        'This phone has a sale in progress; cancel the sale in My Sales before deleting it',
      );
    await loose.note(tx, product.photos);
    return deleteProduct(tx, product.id);
  });
}

// The sale after payment: each transition locks the order, checks, writes, then settles money.

async function lockedOrder(tx: Tx, id: string): Promise<OrderRow> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, id)).for('update');
  return found(order, 'order');
}

/** Marks the payment of `orderId` with the money step decided (from `from` only). */
async function decideMoney(tx: Tx, orderId: string, from: MoneyState, to: MoneyState) {
  const [payment] = await tx
    .update(payments)
    .set({ money: to })
    .where(and(eq(payments.orderId, orderId), eq(payments.money, from)))
    .returning({ id: payments.id });
  return payment?.id;
}

/**
 * Decides to give the buyer's money back: release the hold, or refund it if captured already;
 * the ledger books it in the same transaction.
 */
async function giveBack(tx: Tx, order: OrderRow) {
  const paymentId =
    (await decideMoney(tx, order.id, 'held', 'releasing')) ??
    (await decideMoney(tx, order.id, 'captured', 'refunding'));
  if (paymentId) await postGiveBack(tx, order);
  return paymentId;
}

/** Puts the phone of an order that did not complete back on sale. */
async function releasePhone(tx: Tx, productId: string) {
  const [product] = await tx
    .select()
    .from(products)
    .where(eq(products.id, productId))
    .for('update');
  if (!product || !can('product', product.status, 'release')) return;
  // Its IMEI listed again meanwhile (or blocked): the phone comes back withdrawn, for its seller
  // to see, instead of a second live listing of one phone.
  const imeiTaken =
    product.imeiHash !== null &&
    ((await imeiBlocked(tx, product.imeiHash)) ||
      (await liveListingOf(tx, product.imeiHash)) !== undefined);
  await tx
    .update(products)
    .set({
      status: imeiTaken
        ? next('product', 'available', 'withdraw')
        : next('product', product.status, 'release'),
    })
    .where(eq(products.id, product.id));
  // Back on sale: its rules run again (reports of it may have come while it was sold).
  if (!imeiTaken) await assessListing(tx, product.id);
}

/**
 * Asks the provider for the step decided. The transition stands either way: a provider that
 * fails now leaves the payment in its `-ing` state, and the timed work asks again.
 */
async function settleAfter(sales: Sales, paymentId: string | undefined) {
  if (!paymentId) return;
  await settlePayment(sales.db, sales.provider, paymentId, sales.metrics).catch((err) => {
    sales.log?.warn({ err, paymentId }, 'money step left to the timed work');
  });
}

/**
 * The buyer or the seller cancels a paid sale before the handover: the hold is released and the
 * phone is for sale again. (A booked order is cancelled by the spec's delete.)
 */
export async function cancelSale(sales: Sales, caller: Caller, orderId: string): Promise<void> {
  const paymentId = await sales.db.transaction(async (tx) => {
    const order = await lockedOrder(tx, orderId);
    const side = sideOf(order, caller);
    mayTake(order, side === 'admin' ? null : side, 'cancel');
    if (order.stage === 'booked')
      throw DomainError.conflict('An unpaid booking is deleted from My Orders');
    await tx
      .update(orders)
      .set({
        stage: next('order', order.stage, 'cancel'),
        cancelledBy: side as 'buyer' | 'seller',
        endedAt: new Date(),
      })
      .where(eq(orders.id, order.id));
    await releasePhone(tx, order.productId);
    const other = side === 'buyer' ? order.sellerId : order.buyerId;
    if (other)
      await notify(tx, [
        {
          userId: other,
          kind: 'cancel',
          text: `The sale of ${order.productName} was cancelled by the ${side}. ${side === 'seller' ? 'The hold on your card is released.' : 'The phone is for sale again.'}`,
          link: `/dashboard/orders/${order.id}`,
        },
      ]);
    return giveBack(tx, order);
  });
  await settleAfter(sales, paymentId);
}

const sameCode = (given: string, expected: string) =>
  given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));

/**
 * The answer to the wrong code that was the `failures`th, in sentences (issue 31), saying what
 * more of them leads to.
 */
/** "1 minute", "15 minutes": how long until `when`, rounded up (a person's clock, not ISO). */
const minutesUntil = (when: Date, now: Date) => {
  const n = Math.max(1, Math.ceil((when.getTime() - now.getTime()) / 60_000));
  return `${n} ${n === 1 ? 'minute' : 'minutes'}`;
};

function wrongCodeMessage(failures: number): string {
  const toCancel = HANDOVER_MAX_WRONG_CODES - failures;
  const toLock = HANDOVER_MAX_FAILURES - (failures % HANDOVER_MAX_FAILURES);
  const wrong = 'That code is not right.';
  const cancelled = "the sale is cancelled and the hold on the buyer's card released";
  const tries = (n: number) => `${n} ${n === 1 ? 'try' : 'tries'}`;
  if (toCancel <= 0) return `${wrong} After too many wrong codes ${cancelled}.`;
  const later = `After ${toCancel} more wrong ${toCancel === 1 ? 'code' : 'codes'} ${cancelled}.`;
  if (toLock === HANDOVER_MAX_FAILURES)
    return `${wrong} That was too many wrong codes: try again in ${HANDOVER_LOCK_MINUTES} minutes. ${later}`;
  if (toCancel <= toLock) return `${wrong} ${tries(toCancel)} left before ${cancelled}.`;
  return `${wrong} ${tries(toLock)} left before a ${HANDOVER_LOCK_MINUTES}-minute wait. ${later}`;
}

/**
 * The system cancels a paid sale whose seller entered HANDOVER_MAX_WRONG_CODES wrong codes, in
 * the transaction that counted the last one: the hold is released, the phone is for sale again,
 * and both sides are told. Answers the payment whose hold is to be released.
 */
async function cancelForWrongCodes(tx: Tx, order: OrderRow, failures: number, now: Date) {
  if (!can('order', order.stage, 'cancel', 'system'))
    throw new Error(`sale ${order.id} is ${order.stage}`);
  await tx
    .update(orders)
    .set({ stage: next('order', order.stage, 'cancel'), handoverFailures: failures, endedAt: now })
    .where(eq(orders.id, order.id));
  await releasePhone(tx, order.productId);
  const text = `The sale of ${order.productName} was cancelled: the seller entered a wrong handover code ${HANDOVER_MAX_WRONG_CODES} times. The hold on the buyer's card is released.`;
  await notify(
    tx,
    [order.buyerId, order.sellerId].flatMap((userId) =>
      userId
        ? [{ userId, kind: 'cancel' as const, text, link: `/dashboard/orders/${order.id}` }]
        : [],
    ),
  );
  return giveBack(tx, order);
}

/**
 * The seller enters the code the buyer gave at the meeting: the sale completes and the held money
 * is captured. A wrong code counts (on the order, for the sale's life): every
 * HANDOVER_MAX_FAILURES of them lock the code a while, and the HANDOVER_MAX_WRONG_CODES-th
 * cancels the sale.
 */
export async function handOver(
  sales: Sales,
  caller: Caller,
  orderId: string,
  code: string,
): Promise<void> {
  type Outcome =
    | { paymentId: string | undefined }
    | { wrong: string; cancelled?: { paymentId: string | undefined } }
    | { late: true };
  const now = new Date();
  const outcome = await sales.db.transaction(async (tx): Promise<Outcome> => {
    const order = await lockedOrder(tx, orderId);
    mayTake(order, sideOf(order, caller), 'handover');
    // Past its deadline the hold is the timed work's to release, even before its round comes.
    if (pastDeadline(order, now)) return { late: true };
    if (order.handoverLockedUntil && order.handoverLockedUntil > now)
      throw new DomainError(
        429,
        `Too many wrong codes. Try again in ${minutesUntil(order.handoverLockedUntil, now)}.`,
      );
    if (!order.handoverCode || !sameCode(code, order.handoverCode)) {
      const failures = order.handoverFailures + 1;
      if (failures >= HANDOVER_MAX_WRONG_CODES)
        return {
          wrong: wrongCodeMessage(failures),
          cancelled: { paymentId: await cancelForWrongCodes(tx, order, failures, now) },
        };
      const locked = failures % HANDOVER_MAX_FAILURES === 0;
      await tx
        .update(orders)
        .set({
          handoverFailures: failures,
          handoverLockedUntil: locked
            ? new Date(now.getTime() + HANDOVER_LOCK_MINUTES * 60_000)
            : order.handoverLockedUntil,
        })
        .where(eq(orders.id, order.id));
      return { wrong: wrongCodeMessage(failures) };
    }
    const fee = feeCents(order.priceCents, sales.fees);
    await tx
      .update(orders)
      .set({
        stage: next('order', order.stage, 'handover'),
        completedAt: now,
        // Decided once, with what is known at the handover (decision 038).
        armsLength: await isArmsLength(tx, order),
        feeCents: fee,
        fundsDueAt: new Date(now.getTime() + sales.fundsHoldMs),
      })
      .where(eq(orders.id, order.id));
    await notify(tx, [
      ...(order.buyerId
        ? [
            {
              userId: order.buyerId,
              kind: 'handover' as const,
              text: `You have your ${order.productName}: the sale is complete. You can rate the seller now.`,
              link: `/dashboard/orders/${order.id}`,
            },
          ]
        : []),
      ...(order.sellerId
        ? [
            {
              userId: order.sellerId,
              kind: 'handover' as const,
              text: `The sale of ${order.productName} is complete: ${dollars(order.priceCents - fee)} (the price less the ${dollars(fee)} fee) is yours, paid out once the buyer's report window ends.`,
              link: `/dashboard/orders/${order.id}`,
            },
          ]
        : []),
    ]);
    const paymentId = await decideMoney(tx, order.id, 'held', 'capturing');
    if (paymentId) await postCapture(tx, order, fee);
    return { paymentId };
  });
  // The count of a wrong code is committed; the refusal is the answer.
  if ('wrong' in outcome) {
    if (!outcome.cancelled) throw DomainError.badRequest(outcome.wrong);
    await settleAfter(sales, outcome.cancelled.paymentId);
    throw DomainError.conflict(outcome.wrong);
  }
  if ('late' in outcome) {
    await expireSale(sales, orderId, now, (order) => pastDeadline(order, now));
    throw DomainError.conflict(STAGE_REFUSALS.handover('expired'));
  }
  await settleAfter(sales, outcome.paymentId);
}

/**
 * Releases every hold older than its deadline (the phone goes back on sale): each sale expires
 * once, whichever server's timed work gets to it (rows taken with SKIP LOCKED, stage checked).
 */
export async function expireHolds(sales: Sales, now = new Date(), limit = 50): Promise<number> {
  const due = await sales.db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.stage, 'paid'), lt(orders.holdExpiresAt, now)))
    .orderBy(asc(orders.holdExpiresAt))
    .limit(limit);
  let expired = 0;
  for (const { id } of due) {
    if (await expireSale(sales, id, now, (order) => pastDeadline(order, now), 'skip locked'))
      expired++;
  }
  return expired;
}

/**
 * The provider let the hold go by itself (Stripe cancels an uncaptured intent when the card's
 * authorisation runs out, or someone cancelled it in Stripe's dashboard): the paid sale that
 * money was held for can no longer complete, so it expires now as at its deadline, and releasing
 * the hold finds it released already. Only for an intent the provider itself just answered is
 * cancelled; true when a sale expired.
 */
export async function expireCancelledHold(
  sales: Sales,
  intentId: string,
  now = new Date(),
): Promise<boolean> {
  const [payment] = await sales.db
    .select({ orderId: payments.orderId })
    .from(payments)
    .where(and(eq(payments.transactionId, intentId), eq(payments.money, 'held')));
  return payment ? expireSale(sales, payment.orderId, now, () => true) : false;
}

const pastDeadline = (order: OrderRow, now: Date) =>
  order.holdExpiresAt !== null && order.holdExpiresAt <= now;

/** Expires one paid sale if `due` still says so once it is locked; false when it did not. */
async function expireSale(
  sales: Sales,
  orderId: string,
  now: Date,
  due: (order: OrderRow) => boolean,
  lock: 'wait' | 'skip locked' = 'wait',
): Promise<boolean> {
  const paymentId = await sales.db.transaction(async (tx) => {
    const [order] = await tx
      .select()
      .from(orders)
      .where(eq(orders.id, orderId))
      .for('update', lock === 'skip locked' ? { skipLocked: true } : undefined);
    if (!order || !can('order', order.stage, 'expire') || !due(order)) return null;
    await tx
      .update(orders)
      .set({ stage: next('order', order.stage, 'expire'), endedAt: now })
      .where(eq(orders.id, order.id));
    await releasePhone(tx, order.productId);
    await notify(
      tx,
      [order.buyerId, order.sellerId].flatMap((userId) =>
        userId
          ? [
              {
                userId,
                kind: 'cancel' as const,
                text: `The sale of ${order.productName} ended: the phone was not handed over in time. The hold on the buyer's card is released.`,
                link: `/dashboard/orders/${order.id}`,
              },
            ]
          : [],
      ),
    );
    return (await giveBack(tx, order)) ?? '';
  });
  if (paymentId === null) return false;
  await settleAfter(sales, paymentId || undefined);
  return true;
}

/** The buyer reports a problem within REPORT_WINDOW_DAYS of the handover; the admin decides. */
export async function reportProblem(
  db: Db,
  caller: Caller,
  orderId: string,
  reason: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const order = await lockedOrder(tx, orderId);
    mayTake(order, sideOf(order, caller), 'report');
    const completedAt = order.completedAt?.getTime() ?? 0;
    if (Date.now() - completedAt > REPORT_WINDOW_DAYS * DAY_MS)
      throw DomainError.conflict(
        `A problem can be reported within ${REPORT_WINDOW_DAYS} days of the handover`,
      );
    const [existing] = await tx
      .select({ id: disputes.orderId })
      .from(disputes)
      .where(eq(disputes.orderId, order.id));
    if (existing) throw DomainError.conflict('A problem was reported for this sale already');
    await tx.insert(disputes).values({ orderId: order.id, reason });
    // The seller's share is frozen until the admin decides (it is not paid out meanwhile).
    await tx
      .update(orders)
      .set({ stage: next('order', order.stage, 'report'), fundsDueAt: null })
      .where(eq(orders.id, order.id));
    await postFreeze(tx, order);
  });
}

/** The admin decides a reported problem: refund the buyer, or close it (the seller keeps it). */
export async function resolveDispute(
  sales: Sales,
  caller: Caller,
  orderId: string,
  decision: 'refund' | 'close',
): Promise<void> {
  const paymentId = await sales.db.transaction(async (tx) => {
    const order = await lockedOrder(tx, orderId);
    mayTake(order, caller.isAdmin ? 'admin' : null, decision);
    let paymentId: string | undefined;
    if (decision === 'refund') {
      paymentId = await decideMoney(tx, order.id, 'captured', 'refunding');
      if (!paymentId)
        throw DomainError.conflict('The payment is still being captured; try again in a minute');
      await postRefund(tx, order);
    } else await postUnfreeze(tx, order);
    await tx
      .update(orders)
      .set({
        stage: next('order', order.stage, decision),
        ...(decision === 'refund' ? { endedAt: new Date() } : {}),
        fundsDueAt: null,
      })
      .where(eq(orders.id, order.id));
    await tx
      .update(disputes)
      .set({ resolution: decision === 'refund' ? 'refunded' : 'closed', resolvedAt: new Date() })
      .where(eq(disputes.orderId, order.id));
    return paymentId;
  });
  await settleAfter(sales, paymentId);
}

/**
 * Each side rates the other once after the handover (1-5 stars, an optional comment). A summary
 * counts one rating per rater and rated account, the latest, and none of a sale between related
 * accounts (decision 038): five sales to oneself are not five votes.
 */
export async function rate(
  db: Db,
  caller: Caller,
  orderId: string,
  input: { stars: number; comment: string },
): Promise<void> {
  const { order, side } = await orderSeenBy(db, caller, orderId);
  mayTake(order, side === 'admin' ? null : side, 'rate');
  const by = side as 'buyer' | 'seller';
  const [rateeId, raterId] =
    by === 'buyer' ? [order.sellerId, order.buyerId] : [order.buyerId, order.sellerId];
  const gone = () => DomainError.conflict('The other side of this sale no longer has an account');
  const rated = () => DomainError.conflict('You have rated this sale already');
  if (!rateeId) throw gone();
  await db.transaction(async (tx) => {
    // The rated account, held against deletion until the rating is in (or found gone: 409), and
    // its ratings by one side taken in turn, so that one rating of a pair counts.
    const [ratee] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.id, rateeId))
      .for('no key update');
    if (!ratee) throw gone();
    const [before] = await tx
      .select({ id: ratings.id })
      .from(ratings)
      .where(and(eq(ratings.orderId, order.id), eq(ratings.by, by)));
    if (before) throw rated();
    const counts = order.armsLength === true && raterId !== null;
    if (counts)
      await tx
        .update(ratings)
        .set({ counts: false })
        .where(
          and(
            eq(ratings.raterId, raterId),
            eq(ratings.rateeId, rateeId),
            eq(ratings.by, by),
            eq(ratings.counts, true),
          ),
        );
    const inserted = await tx
      .insert(ratings)
      .values({ orderId: order.id, by, rateeId, raterId, counts, ...input })
      .onConflictDoNothing({ target: [ratings.orderId, ratings.by] })
      .returning({ id: ratings.id });
    if (inserted.length === 0) throw rated();
  });
}

/** A new handover code: six digits, from the system's secure random source. */
export const newHandoverCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');
