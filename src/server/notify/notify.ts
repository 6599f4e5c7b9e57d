/**
 * Telling people what happened (issue 20, decision 027): a notification for the bell, and the
 * same as a mail unless its person turned that kind off in Settings. Written in the transaction
 * of what it tells, by the order process and the admin's calls, so it exists exactly when that
 * happened; the outbox sends the mail after the commit.
 */
import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { withoutContacts } from '../../shared/messages';
import { NOTIFICATION_KIND_LABELS, type NotificationKind } from '../../shared/notifications';
import type { Db, Tx } from '../db/client';
import { notifications, outboxMails, users, wishListItems } from '../db/schema';
import { LIVE_CHANNEL } from '../live/live-hub';
import { letter } from '../mail/messages';
import { SITE_URL_MARK, writeMails } from '../mail/outbox';

export type Notice = {
  userId: string;
  kind: NotificationKind;
  /** One sentence: what happened, naming the phone. */
  text: string;
  /** The page it is about, on this site. */
  link: string;
};

/** At most one message mail per person in this many minutes. */
const MESSAGE_MAIL_GAP_MINUTES = 10;

const SUBJECTS: Record<NotificationKind, string> = {
  booking: 'A buyer booked your phone',
  payment: 'A buyer paid: time to hand over the phone',
  cancel: 'A booking or sale was cancelled',
  handover: 'A sale is complete',
  message: 'A new message',
  'price-drop': 'A phone on your wish list is cheaper',
  'wishlist-sold': 'A phone on your wish list was sold',
  'seller-verified': 'Your seller account is verified',
};

/** Writes the notifications, and a mail for each whose person wants that kind mailed. */
export async function notify(tx: Db | Tx, told: readonly Notice[]): Promise<void> {
  if (told.length === 0) return;
  // A text names what people typed (a buyer's name, a meeting point, a phone's model): the bell
  // and the mail show it through the one contact mask, before the payment as after (issue 29).
  const notices = told.map((n) => ({ ...n, text: withoutContacts(n.text) }));
  await tx.insert(notifications).values(notices);
  // Each person's open pages are told once this commits, on whichever server holds them.
  for (const userId of new Set(notices.map((n) => n.userId)))
    await tx.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${userId})`);
  const people = await tx
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      mailOff: users.mailOff,
      mailKey: users.mailKey,
      // A live page open within the minute: a message shows there, and is not mailed too.
      online: sql<boolean>`coalesce(${users.liveSeenAt} > now() - interval '1 minute', false)`,
      // A message mailed to them in the last few minutes: the next ones wait in the bell, so a
      // flood of messages is not a flood of mail.
      mailedMessage: sql<boolean>`exists (select 1 from ${outboxMails} o
        where o.to_address = "users"."email" and o.kind = 'message'
          and o.created_at > now() - make_interval(mins => ${MESSAGE_MAIL_GAP_MINUTES}))`,
    })
    .from(users)
    .where(
      inArray(
        users.id,
        notices.map((n) => n.userId),
      ),
    );
  const byId = new Map(people.map((p) => [p.id, p]));
  const mails = notices.flatMap((notice) => {
    const person = byId.get(notice.userId);
    if (!person || person.mailOff.includes(notice.kind)) return [];
    if (notice.kind === 'message' && (person.online || person.mailedMessage)) return [];
    const unsubscribe = `${SITE_URL_MARK}/unsubscribe?u=${person.id}&kind=${notice.kind}&key=${person.mailKey}`;
    const mail = letter({
      kind: notice.kind,
      to: person.email,
      name: person.name,
      subject: SUBJECTS[notice.kind],
      lines: [notice.text],
      action: { label: 'Open it on Phone Market', url: `${SITE_URL_MARK}${notice.link}` },
      footer: `You get this mail because you chose to be mailed when ${NOTIFICATION_KIND_LABELS[notice.kind]}. Stop these mails: ${unsubscribe}`,
      headers: {
        // One click in the mail program (RFC 8058) turns this kind off, as the link does.
        'List-Unsubscribe': `<${SITE_URL_MARK}/api/mail-settings/unsubscribe?u=${person.id}&kind=${notice.kind}&key=${person.mailKey}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    });
    return [mail];
  });
  await writeMails(tx, mails);
}

/** The accounts with `productId` on their wish list, but `except` (the buyer who bought it). */
export async function wishersOf(
  tx: Db | Tx,
  productId: string,
  except?: string | null,
): Promise<string[]> {
  const rows = await tx
    .selectDistinct({ id: users.id })
    .from(wishListItems)
    .innerJoin(users, eq(users.email, wishListItems.email))
    .where(and(eq(wishListItems.productId, productId), except ? ne(users.id, except) : undefined));
  return rows.map((r) => r.id);
}

/** The account of an e-mail address, if it has one. */
export async function accountIdOf(tx: Db | Tx, email: string): Promise<string | null> {
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email.toLowerCase()))
    .limit(1);
  return row?.id ?? null;
}

/** Marks a person's notifications read: those of `ids`, or every unread one. */
export async function markRead(db: Db, userId: string, ids?: readonly string[]): Promise<number> {
  const read = await db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(
      and(
        eq(notifications.userId, userId),
        isNull(notifications.readAt),
        ids ? inArray(notifications.id, [...ids]) : undefined,
      ),
    )
    .returning({ id: notifications.id });
  return read.length;
}
