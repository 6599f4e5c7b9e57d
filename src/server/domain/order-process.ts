/**
 * The order process (src/shared/order-process.ts is its graph): who may book, pay for, cancel,
 * advertise or withdraw, and the transitions themselves. Each guard refuses with the
 * DomainError its answer carries; routes and the payment recorder call these, never restate them.
 */
import { can } from '../../shared/order-process';
import { TEXT } from '../../shared/texts';
import type { Db } from '../db/client';
import type { Caller } from '../plugins/auth';
import { deleteOrderIn, findOrder, insertOrder, type OrderRow } from '../repositories/buying';
import { toCents } from '../repositories/money';
import {
  advertiseProduct,
  deleteProduct,
  findProduct,
  type ProductRow,
} from '../repositories/products';
import { DomainError } from './domain-error';

const NOT_YOURS = 'You may only act on your own account';

function found<T>(row: T | undefined, what: string): T {
  if (!row) throw DomainError.notFound(`No such ${what}`);
  return row;
}

// The guards.

export function mayBook(caller: Caller, product: ProductRow): void {
  if (product.sellerEmail === caller.email)
    throw DomainError.forbidden('You cannot book your own phone');
  if (!can('product', product.status, 'sell'))
    throw DomainError.conflict('This phone is already sold');
}

/** A payment may start for an unpaid order of a phone still for sale, at the order's price. */
export function mayPay(order: OrderRow, product: ProductRow | undefined, priceCents: number) {
  if (!can('order', order.status, 'pay')) throw DomainError.conflict('This order is already paid');
  if (!product || !can('product', product.status, 'sell'))
    throw DomainError.conflict('This phone is no longer for sale');
  // The amount is the order's; a client that asks for another is refused, never charged it.
  if (priceCents !== order.priceCents)
    throw DomainError.badRequest("price: does not match the order's price");
}

/** Whether a payment of `order` can make its phone sold now (else the payment is refunded). */
export function maySell(order: OrderRow, product: ProductRow | undefined): product is ProductRow {
  return (
    product !== undefined &&
    can('order', order.status, 'pay') &&
    can('product', product.status, 'sell')
  );
}

export function mayCancel(order: OrderRow): void {
  if (!can('order', order.status, 'cancel'))
    throw DomainError.conflict('A paid order cannot be deleted');
}

export function mayAdvertise(caller: Caller, product: ProductRow): void {
  if (product.sellerEmail !== caller.email)
    throw DomainError.forbidden('You may only advertise your own products');
  if (!can('product', product.status, 'advertise'))
    throw DomainError.conflict('A sold product cannot be advertised');
}

export function mayWithdraw(caller: Caller, product: ProductRow): void {
  if (product.sellerEmail !== caller.email && !caller.isAdmin)
    throw DomainError.forbidden('You may only delete your own products');
}

// The transitions, each guarded.

/**
 * The order with this id if the caller's account placed it: 404 when there is none, 403 when it
 * is another's (an earlier account of the same address included).
 */
export async function ownOrder(db: Db, caller: Caller, id: string): Promise<OrderRow> {
  const order = found(await findOrder(db, id), 'order');
  if (order.buyerId !== caller.id) throw DomainError.forbidden(NOT_YOURS);
  return order;
}

/** Books a phone at its resale price; the server fills every field it knows from its records. */
export async function book(
  db: Db,
  caller: Caller,
  input: { productId: string; location: string; number: string },
): Promise<void> {
  const product = found(await findProduct(db, input.productId), 'product');
  mayBook(caller, product);
  const booked = await insertOrder(db, {
    buyerId: caller.id,
    email: caller.email,
    userName: caller.name,
    productId: product.id,
    productName: product.modelName,
    image: product.image,
    priceCents: product.resellPriceCents,
    location: input.location,
    number: input.number,
  });
  if (!booked) throw DomainError.conflict(TEXT.toast.alreadyBooked);
}

/** The buyer's unpaid order a payment may start for, at `price` dollars. */
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

/** The buyer cancels an unpaid order (the spec's delete). */
export async function cancelOrder(db: Db, caller: Caller, orderId: string): Promise<number> {
  const order = await ownOrder(db, caller, orderId);
  mayCancel(order);
  return deleteOrderIn(db, order.id, order.status);
}

/** Advertises the seller's unsold phone; false when it was advertised already. */
export async function advertise(db: Db, caller: Caller, productId: string): Promise<boolean> {
  const product = found(await findProduct(db, productId), 'product');
  mayAdvertise(caller, product);
  return advertiseProduct(db, product.id);
}

/** The seller (or an admin) takes a phone off the market; paid orders keep their record. */
export async function withdraw(db: Db, caller: Caller, productId: string): Promise<number> {
  const product = found(await findProduct(db, productId), 'product');
  mayWithdraw(caller, product);
  return deleteProduct(db, product.id);
}
