/**
 * Telling people what happened (issue 20, decision 027): a notification for the bell, and the
 * same as a mail unless its person turned that kind off in Settings or had their share of that
 * kind's mail (mail-caps.ts, decision 037). Written in the transaction of what it tells, by the
 * order process and the admin's calls, so it exists exactly when that happened; the outbox sends
 * the mail after the commit.
 */
import { and, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import { withoutContacts } from '../../shared/messages';
import { NOTIFICATION_KIND_LABELS, type NotificationKind } from '../../shared/notifications';
import type { Db, Tx } from '../db/client';
import { notifications, outboxMails, users, wishListItems } from '../db/schema';
import { letter } from '../mail/messages';
import { SITE_URL_MARK, writeMails } from '../mail/outbox';
import { unsubscribeKey } from '../repositories/notifications';
import { MAIL_CAPS } from './mail-caps';

export type Notice = {
  userId: string;
  kind: NotificationKind;
  /** One sentence: what happened, naming the phone. */
  text: string;
  /** The page it is about, on this site. */
  link: string;
};

const SUBJECTS: Record<NotificationKind, string> = {
  booking: 'A buyer booked your phone',
  payment: 'A buyer paid: time to hand over the phone',
  cancel: 'A booking or sale was cancelled',
  handover: 'A sale is complete',
  message: 'A new message',
  'price-drop': 'A phone on your wish list is cheaper',
  'wishlist-sold': 'A phone on your wish list was sold',
  'seller-verified': 'Your seller account is verified',
  payout: 'About your payouts',
  'saved-search': 'A phone you are looking for was just listed',
  'saved-search-digest': 'Today’s phones for your saved searches',
  'report-decided': 'We looked at your report',
};

/**
 * Writes the notifications, and a mail for each whose person wants that kind mailed, within the
 * kind's cap (mail-caps.ts): past it the bell alone tells.
 */
export async function notify(tx: Db | Tx, told: readonly Notice[]): Promise<void> {
  if (told.length === 0) return;
  // A text names what people typed (a buyer's name, a meeting point, a phone's model): the bell
  // and the mail show it through the one contact mask, before the payment as after (issue 29).
  const notices = told.map((n) => ({ ...n, text: withoutContacts(n.text) }));
  // Asked before these are written, as they would count themselves.
  const pagesTold = await pagesToldOf(tx, notices);
  // Each person's open pages are told once this commits, on whichever server holds them (the
  // table's trigger, migration 0024).
  await tx.insert(notifications).values(notices);
  const people = await tx
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      mailOff: users.mailOff,
      mailKey: users.mailKey,
      // A live page open within the minute: a message shows there, and is not mailed too.
      online: sql<boolean>`coalesce(${users.liveSeenAt} > now() - interval '1 minute', false)`,
    })
    .from(users)
    .where(
      inArray(
        users.id,
        notices.map((n) => n.userId),
      ),
    );
  const byId = new Map(people.map((p) => [p.id, p]));
  const mailed = await mailedWithinCaps(
    tx,
    notices,
    people.map((p) => p.email),
  );
  const mails = notices.flatMap((notice) => {
    const person = byId.get(notice.userId);
    if (!person || person.mailOff.includes(notice.kind)) return [];
    if (notice.kind === 'message' && person.online) return [];
    const cap = MAIL_CAPS[notice.kind];
    let lastOfCap = false;
    if (cap) {
      const page = `${notice.userId} ${notice.kind} ${notice.link}`;
      const counted = `${person.email} ${notice.kind}`;
      const sent = mailed.get(counted) ?? 0;
      if (pagesTold.has(page) || sent >= cap.max) return [];
      if (cap.onePerPageMinutes) pagesTold.add(page);
      mailed.set(counted, sent + 1);
      lastOfCap = cap.max > 1 && sent + 1 === cap.max;
    }
    const query = `u=${person.id}&kind=${notice.kind}&key=${unsubscribeKey(person.mailKey, notice.kind)}`;
    const unsubscribe = `${SITE_URL_MARK}/unsubscribe?${query}`;
    const mail = letter({
      kind: notice.kind,
      to: person.email,
      name: person.name,
      subject: SUBJECTS[notice.kind],
      lines: [
        notice.text,
        // Said in the mail that uses up the allowance, so a quiet inbox is not mistaken for calm.
        ...(lastOfCap && cap
          ? [
              `You get at most ${cap.max} of these mails ${cap.per}; any more wait in your notifications on Phone Market.`,
            ]
          : []),
      ],
      action: { label: 'Open it on Phone Market', url: `${SITE_URL_MARK}${notice.link}` },
      footer: `You get this mail because you chose to be mailed when ${NOTIFICATION_KIND_LABELS[notice.kind]}. Stop these mails: ${unsubscribe}`,
      headers: {
        // One click in the mail program (RFC 8058) turns this kind off, as the link does.
        'List-Unsubscribe': `<${SITE_URL_MARK}/api/mail-settings/unsubscribe?${query}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    });
    return [mail];
  });
  await writeMails(tx, mails);
}

/**
 * The pages (person, kind, link) the bell told of within their kind's one-per-page window:
 * another notice about one of them is not mailed.
 */
async function pagesToldOf(tx: Db | Tx, notices: readonly Notice[]): Promise<Set<string>> {
  const told = new Set<string>();
  for (const kind of new Set(notices.map((n) => n.kind))) {
    const minutes = MAIL_CAPS[kind]?.onePerPageMinutes;
    if (!minutes) continue;
    const ofKind = notices.filter((n) => n.kind === kind);
    const rows = await tx
      .selectDistinct({ userId: notifications.userId, link: notifications.link })
      .from(notifications)
      .where(
        and(
          inArray(notifications.userId, [...new Set(ofKind.map((n) => n.userId))]),
          eq(notifications.kind, kind),
          inArray(notifications.link, [...new Set(ofKind.map((n) => n.link))]),
          gt(notifications.createdAt, sql`now() - make_interval(mins => ${minutes})`),
        ),
      );
    for (const row of rows) told.add(`${row.userId} ${kind} ${row.link}`);
  }
  return told;
}

/** Mails of each capped kind in `notices` sent to each address within its cap's window. */
async function mailedWithinCaps(
  tx: Db | Tx,
  notices: readonly Notice[],
  addresses: readonly string[],
): Promise<Map<string, number>> {
  const mailed = new Map<string, number>();
  if (addresses.length === 0) return mailed;
  for (const kind of new Set(notices.map((n) => n.kind))) {
    const cap = MAIL_CAPS[kind];
    if (!cap) continue;
    const rows = await tx
      .select({ to: outboxMails.toAddress, n: sql<number>`count(*)::int` })
      .from(outboxMails)
      .where(
        and(
          inArray(outboxMails.toAddress, [...addresses]),
          eq(outboxMails.kind, kind),
          gt(outboxMails.createdAt, sql`now() - make_interval(mins => ${cap.minutes})`),
        ),
      )
      .groupBy(outboxMails.toAddress);
    for (const row of rows) mailed.set(`${row.to} ${kind}`, row.n);
  }
  return mailed;
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
