/**
 * Buyer and seller messages (issue 20, decision 028): who may start, read, write and report
 * what. One conversation per phone and buyer; a buyer starts it from a phone for sale that is not
 * their own, and both sides continue it whatever becomes of the phone. Until the buyer has paid
 * for the phone, contact details are hidden in what either side writes. Each message tells the
 * other side (a notification, mailed unless they have a live page open).
 */

import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Conversation, ConversationSummary, ReportedMessage } from '../../shared/entities';
import { hideContacts, withoutContacts } from '../../shared/messages';
import { CONTACT_STAGES } from '../../shared/order-process';
import type { Db, Tx } from '../db/client';
import { conversations, messages, notifications, orders, products, users } from '../db/schema';
import { notify } from '../notify/notify';
import type { Caller } from '../plugins/auth';
import { findUserByEmail } from '../repositories/users';
import { assessMessage } from '../risk/assess';
import { DomainError } from './domain-error';

/** A conversation's page: where its notifications lead. */
const conversationLink = (id: string) => `/dashboard/messages/${id}`;

/** The messages a conversation's page shows: the latest, oldest first. */
const SHOWN_MESSAGES = 200;

type ConversationRow = typeof conversations.$inferSelect;

const sideOf = (c: ConversationRow, caller: Caller): 'buyer' | 'seller' | null =>
  c.buyerId === caller.id ? 'buyer' : c.sellerId === caller.id ? 'seller' : null;

/** Whether the buyer of `c` has paid for its phone (any sale of it from this buyer). */
async function paid(db: Db | Tx, c: ConversationRow): Promise<boolean> {
  if (!c.productId) return false;
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.productId, c.productId),
        eq(orders.buyerId, c.buyerId),
        inArray(orders.stage, [...CONTACT_STAGES]),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Writes a message as its sender typed it, hidden where it must be, and tells the other side. */
async function write(
  tx: Tx,
  c: ConversationRow,
  sender: Caller,
  typed: string,
): Promise<{ messageId: string; hidden: boolean }> {
  const isPaid = await paid(tx, c);
  const { text, hidden } = isPaid ? { text: typed, hidden: false } : hideContacts(typed);
  const [message] = await tx
    .insert(messages)
    .values({ conversationId: c.id, senderId: sender.id, body: text, hidden })
    .returning({ id: messages.id });
  // Asking to pay or talk outside the marketplace before a payment (issue 34): its receiver is
  // warned. After one, arranging the meeting is what the two sides are meant to do.
  if (!isPaid)
    await assessMessage(tx, { id: message?.id as string, body: typed, senderId: sender.id });
  const side = sideOf(c, sender);
  const now = sql`now()`;
  await tx
    .update(conversations)
    .set({
      lastMessageAt: now,
      ...(side === 'buyer' ? { buyerReadAt: now } : { sellerReadAt: now }),
    })
    .where(eq(conversations.id, c.id));
  const preview = text.length > 80 ? `${text.slice(0, 79)}…` : text;
  await notify(tx, [
    {
      userId: side === 'buyer' ? c.sellerId : c.buyerId,
      kind: 'message',
      text: `${withoutContacts(sender.name)} wrote about ${c.productName}: “${preview}”`,
      link: conversationLink(c.id),
    },
  ]);
  return { messageId: message?.id as string, hidden };
}

/**
 * A buyer asks the seller of a phone for sale; a second question about the same phone goes on in
 * the conversation they have.
 */
export async function startConversation(
  db: Db,
  caller: Caller,
  productId: string,
  body: string,
): Promise<{ conversationId: string; hidden: boolean }> {
  const [product] = await db.select().from(products).where(eq(products.id, productId)).limit(1);
  if (!product) throw DomainError.notFound('No such product');
  if (product.sellerEmail === caller.email) throw DomainError.forbidden('This is your own phone');
  const seller = await findUserByEmail(db, product.sellerEmail);
  if (!seller) throw DomainError.notFound('No such product');
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(conversations)
      .where(and(eq(conversations.productId, product.id), eq(conversations.buyerId, caller.id)))
      .for('update');
    if (!existing && product.status !== 'available')
      throw DomainError.conflict('This phone is no longer for sale');
    const [conversation] = existing
      ? [existing]
      : await tx
          .insert(conversations)
          .values({
            productId: product.id,
            productName: product.modelName,
            buyerId: caller.id,
            sellerId: seller.id,
          })
          .onConflictDoNothing()
          .returning();
    // Another tab of the same buyer started it at the same moment.
    const c =
      conversation ??
      (
        await tx
          .select()
          .from(conversations)
          .where(and(eq(conversations.productId, product.id), eq(conversations.buyerId, caller.id)))
      )[0];
    if (!c) throw DomainError.conflict('Try again');
    const { hidden } = await write(tx, c, caller, body);
    return { conversationId: c.id, hidden };
  });
}

/** Either side writes in their conversation. */
export async function sendMessage(
  db: Db,
  caller: Caller,
  conversationId: string,
  body: string,
): Promise<{ messageId: string; hidden: boolean }> {
  return db.transaction(async (tx) => {
    const [c] = await tx
      .select()
      .from(conversations)
      .where(eq(conversations.id, conversationId))
      .for('update');
    if (!c || !sideOf(c, caller)) throw DomainError.notFound('No such conversation');
    return write(tx, c, caller, body);
  });
}

/** The caller's conversations, the latest first, with their last message. */
export async function listConversations(db: Db, caller: Caller): Promise<ConversationSummary[]> {
  // Qualified by hand: drizzle leaves a one-table select's columns bare, and a bare "id" in a
  // subquery would be the subquery's own.
  const own = (column: string) => sql.raw(`"conversations"."${column}"`);
  const rows = await db
    .select({
      c: conversations,
      buyerName: sql<string>`(select u.name from ${users} u where u.id = ${own('buyer_id')})`,
      sellerName: sql<string>`(select u.name from ${users} u where u.id = ${own('seller_id')})`,
      last: sql<{ body: string; sender_id: string | null; created_at: string } | null>`(
        select json_build_object('body', m.body, 'sender_id', m.sender_id, 'created_at', m.created_at)
        from ${messages} m where m.conversation_id = ${own('id')}
        order by m.seq desc limit 1)`,
    })
    .from(conversations)
    .where(or(eq(conversations.buyerId, caller.id), eq(conversations.sellerId, caller.id)))
    .orderBy(desc(conversations.lastMessageAt))
    .limit(200);
  return rows.map(({ c, buyerName, sellerName, last }) => {
    const side = c.buyerId === caller.id ? 'buyer' : 'seller';
    const readAt = side === 'buyer' ? c.buyerReadAt : c.sellerReadAt;
    return {
      _id: c.id,
      productId: c.productId,
      productName: withoutContacts(c.productName),
      side,
      counterpartName: withoutContacts(side === 'buyer' ? sellerName : buyerName),
      lastMessage: last
        ? {
            body: last.body,
            mine: last.sender_id === caller.id,
            at: new Date(last.created_at).toISOString(),
          }
        : null,
      unread: readAt === null || readAt < c.lastMessageAt,
    };
  });
}

/**
 * One conversation, read by one of its sides (which marks it read for them), or by an admin when
 * one of its messages was reported.
 */
export async function readConversation(db: Db, caller: Caller, id: string): Promise<Conversation> {
  const [c] = await db.select().from(conversations).where(eq(conversations.id, id)).limit(1);
  const side = c ? sideOf(c, caller) : null;
  if (!c || (!side && !(caller.isAdmin && (await hasReport(db, c.id)))))
    throw DomainError.notFound('No such conversation');
  if (side)
    await db.transaction(async (tx) => {
      // Only when something is unread: a write tells both sides' pages (migration 0024), whose
      // refresh reads it again; a read that changes nothing must not write, or they would loop.
      const readAt = side === 'buyer' ? conversations.buyerReadAt : conversations.sellerReadAt;
      await tx
        .update(conversations)
        .set(side === 'buyer' ? { buyerReadAt: sql`now()` } : { sellerReadAt: sql`now()` })
        .where(
          and(
            eq(conversations.id, c.id),
            or(isNull(readAt), lt(readAt, conversations.lastMessageAt)),
          ),
        );
      // Read here, its messages are read on the bell too (issue 31).
      await tx
        .update(notifications)
        .set({ readAt: sql`now()` })
        .where(
          and(
            eq(notifications.userId, caller.id),
            eq(notifications.kind, 'message'),
            eq(notifications.link, conversationLink(c.id)),
            isNull(notifications.readAt),
          ),
        );
    });
  const names = await db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(inArray(users.id, [c.buyerId, c.sellerId]));
  const nameOf = (userId: string | null) =>
    withoutContacts(names.find((n) => n.id === userId)?.name ?? 'A deleted account');
  const latest = await db
    .select()
    .from(messages)
    .where(eq(messages.conversationId, c.id))
    .orderBy(desc(messages.seq))
    .limit(SHOWN_MESSAGES);
  return {
    _id: c.id,
    productId: c.productId,
    productName: withoutContacts(c.productName),
    side: side ?? 'admin',
    counterpartName: nameOf(side === 'seller' ? c.buyerId : c.sellerId),
    buyerName: nameOf(c.buyerId),
    sellerName: nameOf(c.sellerId),
    unread: false,
    paid: await paid(db, c),
    messages: latest.reverse().map((m) => ({
      _id: m.id,
      body: m.body,
      mine: m.senderId === caller.id,
      senderName: nameOf(m.senderId),
      at: m.createdAt.toISOString(),
      hidden: m.hidden,
      // The sender knows what they wrote; its receiver is warned.
      offPlatform: m.offPlatform && m.senderId !== caller.id,
      reported: m.reportedAt !== null,
    })),
  };
}

async function hasReport(db: Db, conversationId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), isNotNull(messages.reportedAt)))
    .limit(1);
  return row !== undefined;
}

/** The receiver of a message reports it to the admin, once. */
export async function reportMessage(
  db: Db,
  caller: Caller,
  messageId: string,
  reason: string,
): Promise<void> {
  const [row] = await db
    .select({ m: messages, c: conversations })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(eq(messages.id, messageId))
    .limit(1);
  if (!row || !sideOf(row.c, caller)) throw DomainError.notFound('No such message');
  if (row.m.senderId === caller.id)
    throw DomainError.forbidden('You can only report a message you received');
  if (row.m.reportedAt) throw DomainError.conflict('This message was reported already');
  await db
    .update(messages)
    .set({ reportedAt: sql`now()`, reportReason: reason })
    .where(eq(messages.id, messageId));
}

/** Every reported message, the latest report first, for the admin. */
export async function listReportedMessages(db: Db): Promise<ReportedMessage[]> {
  const rows = await db
    .select({ m: messages, c: conversations, name: users.name, email: users.email })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .leftJoin(users, eq(users.id, messages.senderId))
    .where(isNotNull(messages.reportedAt))
    .orderBy(desc(messages.reportedAt), asc(messages.seq))
    .limit(200);
  return rows.map(({ m, c, name, email }) => ({
    _id: m.id,
    conversationId: c.id,
    productName: withoutContacts(c.productName),
    body: m.body,
    reason: m.reportReason ?? '',
    reportedAt: (m.reportedAt as Date).toISOString(),
    senderName: name ?? 'A deleted account',
    senderEmail: email,
  }));
}
