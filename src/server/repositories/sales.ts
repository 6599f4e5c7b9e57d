/**
 * Sales as their buyer, seller or an admin sees them: an order with its payment, its dispute,
 * both ratings and both sides' standing, mapped once to the contract's `Sale`.
 */

import { and, desc, eq, inArray, isNotNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { PaginationQuery } from '../../shared/api';
import type { Booking, Sale } from '../../shared/entities';
import { withoutContacts } from '../../shared/messages';
import {
  type Actor,
  CONTACT_STAGES,
  type OrderStage,
  type OrderTransition,
  REPORT_WINDOW_DAYS,
  type SellerMoneyState,
  transitionsFor,
} from '../../shared/order-process';
import type { Db } from '../db/client';
import { disputes, orders, payments, products, ratings, users } from '../db/schema';
import { isSoldElsewhere } from './buying';
import { toDollars } from './money';
import { cursorOf, newestFirst, type Page, pageOf } from './page';
import { ratingOf } from './products';
import { sellerMoneyOf } from './seller-money';

const DAY_MS = 24 * 60 * 60 * 1000;
const iso = (d: Date | null) => d?.toISOString() ?? null;

function selectSales(db: Db) {
  return db
    .select({
      order: orders,
      productStatus: products.status,
      imeiLast4: products.imeiLast4,
      transactionId: payments.transactionId,
      money: payments.money,
      dispute: disputes,
      // A buyer is rated by the sellers they bought from.
      buyerRating: ratingOf(orders.buyerId, 'seller'),
      sellerRating: ratingOf(orders.sellerId),
      // Whether each side still has an account (a deleted one cannot be rated).
      buyerExists: sql<boolean>`exists (select 1 from ${users} where ${users.id} = ${orders.buyerId})`,
      sellerExists: sql<boolean>`exists (select 1 from ${users} where ${users.id} = ${orders.sellerId})`,
    })
    .from(orders)
    .leftJoin(products, eq(products.id, orders.productId))
    .leftJoin(payments, eq(payments.orderId, orders.id))
    .leftJoin(disputes, eq(disputes.orderId, orders.id));
}
type SaleRow = Awaited<ReturnType<ReturnType<typeof selectSales>['execute']>>[number];
type Given = Sale['ratings'];

/** The ratings given on these orders, by order. */
async function ratingsOf(db: Db, orderIds: string[]): Promise<Map<string, Given>> {
  const byOrder = new Map<string, Given>();
  if (orderIds.length === 0) return byOrder;
  const rows = await db.select().from(ratings).where(inArray(ratings.orderId, orderIds));
  for (const r of rows) {
    const given = byOrder.get(r.orderId) ?? { byBuyer: null, bySeller: null };
    given[r.by === 'buyer' ? 'byBuyer' : 'bySeller'] = { stars: r.stars, comment: r.comment };
    byOrder.set(r.orderId, given);
  }
  return byOrder;
}

/**
 * What `side` may do now: the stage's transitions for that side, less those the sale's own
 * facts rule out (a phone sold elsewhere cannot be paid for, a side rates once, a problem is
 * reported once and within the window after the handover).
 */
function actionsOf(row: SaleRow, side: Actor, given: Given, now: number): OrderTransition[] {
  const { order } = row;
  return transitionsFor(order.stage, side).filter((t) => {
    if (t === 'pay') return !isSoldElsewhere(order, row.productStatus);
    if (t === 'rate')
      return (
        (side === 'buyer' ? given.byBuyer : given.bySeller) === null &&
        (side === 'buyer' ? row.sellerExists : row.buyerExists)
      );
    if (t === 'report')
      return (
        row.dispute === null &&
        now - (order.completedAt?.getTime() ?? 0) <= REPORT_WINDOW_DAYS * DAY_MS
      );
    return true;
  });
}

const CONTACT: ReadonlySet<OrderStage> = new Set(CONTACT_STAGES);

function toSale(
  row: SaleRow,
  side: 'buyer' | 'seller' | 'admin',
  given: Given,
  now: number,
  money: SellerMoneyState | undefined,
): Sale {
  const { order } = row;
  // Numbers are exchanged once the buyer has paid; before that each side sees only names.
  const paid = order.stage !== 'booked';
  // A sale that ended without a handover (cancelled, expired) hides them again: paying and
  // cancelling at once must not be a way to collect sellers' numbers (issue 29).
  const inContact = CONTACT.has(order.stage);
  const showNumbers = side === 'admin' || inContact;
  return {
    _id: order.id,
    productId: order.productId,
    productName: withoutContacts(order.productName),
    image: order.image,
    price: toDollars(order.priceCents),
    status: order.status,
    stage: order.stage,
    side,
    actions: actionsOf(row, side, given, now),
    // The buyer typed it: the seller reads it through the contact mask until the payment.
    meetingPoint:
      side === 'seller' && !inContact ? withoutContacts(order.location) : order.location,
    bookedAt: order.createdAt.toISOString(),
    paidAt: iso(order.paidAt),
    holdExpiresAt: order.stage === 'paid' ? iso(order.holdExpiresAt) : null,
    completedAt: iso(order.completedAt),
    endedAt: iso(order.endedAt),
    cancelledBy: order.cancelledBy,
    soldElsewhere: isSoldElsewhere(order, row.productStatus),
    buyer: {
      name: side === 'buyer' ? order.userName : withoutContacts(order.userName),
      email: side === 'seller' && !showNumbers ? null : order.email,
      number: side === 'buyer' || showNumbers ? order.number : null,
      rating: row.buyerRating,
    },
    seller: {
      name: withoutContacts(order.sellerName ?? 'A former seller'),
      email: side === 'buyer' && !showNumbers ? null : order.sellerEmail,
      number: side === 'seller' || showNumbers ? order.sellerNumber : null,
      rating: row.sellerRating,
    },
    // Only the buyer holds the code, and only while it can still complete the sale.
    handoverCode: side === 'buyer' && order.stage === 'paid' ? order.handoverCode : null,
    // The buyer compares these digits with the phone's (*#06#) at the handover, once paid.
    imeiLast4: side !== 'buyer' || paid ? row.imeiLast4 : null,
    handoverLockedUntil:
      order.handoverLockedUntil && order.handoverLockedUntil.getTime() > now
        ? order.handoverLockedUntil.toISOString()
        : null,
    transactionId: row.transactionId,
    money: row.money,
    dispute: row.dispute && {
      reason: row.dispute.reason,
      reportedAt: row.dispute.createdAt.toISOString(),
      resolution: row.dispute.resolution,
      resolvedAt: iso(row.dispute.resolvedAt),
    },
    ratings: given,
    // The fee is between the seller and the marketplace: the buyer paid the price.
    fee: side === 'buyer' || order.feeCents === null ? null : toDollars(order.feeCents),
    net:
      side === 'buyer' || order.feeCents === null
        ? null
        : toDollars(order.priceCents - order.feeCents),
    sellerMoney: side === 'buyer' ? null : (money ?? null),
  };
}

async function toSales(
  db: Db,
  rows: SaleRow[],
  sideOf: (row: SaleRow) => 'buyer' | 'seller' | 'admin',
): Promise<Sale[]> {
  const given = await ratingsOf(
    db,
    rows.map((r) => r.order.id),
  );
  const money = await sellerMoneyOf(
    db,
    rows.filter((r) => r.order.feeCents !== null).map((r) => r.order.id),
  );
  const now = Date.now();
  return rows.map((r) =>
    toSale(
      r,
      sideOf(r),
      given.get(r.order.id) ?? { byBuyer: null, bySeller: null },
      now,
      money.get(r.order.id),
    ),
  );
}

/** One sale as `side` sees it. */
export async function saleView(
  db: Db,
  orderId: string,
  side: 'buyer' | 'seller' | 'admin',
): Promise<Sale | undefined> {
  const rows = await selectSales(db).where(eq(orders.id, orderId));
  const [sale] = await toSales(db, rows, () => side);
  return sale;
}

async function pageOfSales(
  db: Db,
  where: SQL | undefined,
  seqOf: typeof orders.seq | typeof disputes.seq,
  query: PaginationQuery,
  side: 'seller' | 'admin',
): Promise<Page<Sale>> {
  const cursor = cursorOf(query);
  const rows = await selectSales(db)
    .where(and(where, cursor ? lt(seqOf, cursor) : undefined))
    .orderBy(newestFirst(seqOf))
    .limit(query.limit + 1);
  const page = pageOf(
    rows,
    query,
    (r) => (seqOf === disputes.seq ? (r.dispute?.seq ?? 0) : r.order.seq),
    (r) => r,
  );
  return { ...page, items: await toSales(db, page.items, () => side) };
}

/** Every booking and sale of the seller's phones, newest first. */
export const listSales = (db: Db, sellerId: string, query: PaginationQuery) =>
  pageOfSales(db, eq(orders.sellerId, sellerId), orders.seq, query, 'seller');

/** Reported problems, newest report first (open and decided). */
export const listDisputes = (db: Db, query: PaginationQuery) =>
  pageOfSales(db, isNotNull(disputes.orderId), disputes.seq, query, 'admin');

/** The caller's live orders (booked or paid), for the catalog's "booked by you". */
export async function listBookings(db: Db, buyerId: string): Promise<Booking[]> {
  const rows = await db
    .select({ orderId: orders.id, productId: orders.productId, stage: orders.stage })
    .from(orders)
    .where(
      and(eq(orders.buyerId, buyerId), or(eq(orders.stage, 'booked'), eq(orders.stage, 'paid'))),
    )
    .orderBy(desc(orders.seq))
    .limit(500);
  return rows;
}
