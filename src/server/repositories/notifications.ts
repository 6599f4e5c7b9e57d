/** A person's notifications and mail settings (issue 20), newest first on their own index. */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, count, eq, isNull, lt } from 'drizzle-orm';
import type { MailSettings, PaginationQuery } from '../../shared/api';
import type { Notification } from '../../shared/entities';
import { withoutContacts } from '../../shared/messages';
import type { NotificationKind } from '../../shared/notifications';
import type { Db } from '../db/client';
import { notifications, users } from '../db/schema';
import { cursorOf, newestFirst, type Page, pageOf } from './page';

export async function listNotifications(
  db: Db,
  userId: string,
  query: PaginationQuery,
): Promise<Page<Notification>> {
  const cursor = cursorOf(query);
  const rows = await db
    .select()
    .from(notifications)
    .where(
      and(eq(notifications.userId, userId), cursor ? lt(notifications.seq, cursor) : undefined),
    )
    .orderBy(newestFirst(notifications.seq))
    .limit(query.limit + 1);
  return pageOf(
    rows,
    query,
    (r) => r.seq,
    (r) => ({
      _id: r.id,
      kind: r.kind,
      // Masked again on the way out: notifications written before the mask are kept as written.
      text: withoutContacts(r.text),
      link: r.link,
      createdAt: r.createdAt.toISOString(),
      read: r.readAt !== null,
    }),
  );
}

export async function unreadCount(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

export async function mailSettingsOf(db: Db, userId: string): Promise<MailSettings> {
  const [row] = await db
    .select({ off: users.mailOff })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return { off: (row?.off ?? []) as NotificationKind[] };
}

export async function saveMailSettings(
  db: Db,
  userId: string,
  settings: MailSettings,
): Promise<MailSettings> {
  const [row] = await db
    .update(users)
    .set({ mailOff: [...new Set(settings.off)] })
    .where(eq(users.id, userId))
    .returning({ off: users.mailOff });
  return { off: (row?.off ?? []) as NotificationKind[] };
}

/**
 * The key in a mail's unsubscribe link: the account's mail key bound to the mail's kind, so a
 * link turns off its own kind and no other (changing `kind` in it makes the key wrong).
 */
export const unsubscribeKey = (mailKey: string, kind: NotificationKind) =>
  createHmac('sha256', mailKey).update(`unsubscribe:${kind}`).digest('hex').slice(0, 32);

/**
 * A mail's unsubscribe link: turns `kind` off for the account whose key for that kind it
 * carries. Answers null when the account or the key is not right (nothing is said about which).
 */
export async function unsubscribe(
  db: Db,
  { u, kind, key }: { u: string; kind: NotificationKind; key: string },
): Promise<MailSettings | null> {
  const [row] = await db
    .select({ mailKey: users.mailKey, off: users.mailOff })
    .from(users)
    .where(eq(users.id, u))
    .limit(1);
  if (!row || !sameKey(unsubscribeKey(row.mailKey, kind), key)) return null;
  const off = [...new Set([...row.off, kind])] as NotificationKind[];
  return saveMailSettings(db, u, { off });
}

const sameKey = (stored: string, given: string) =>
  stored.length === given.length && timingSafeEqual(Buffer.from(stored), Buffer.from(given));
