/**
 * The outbox (issue 20, decision 027): a mail is a row written with what it tells, so it is sent
 * if and only if that happened, and it survives a crash or a restart. Delivery claims due rows
 * (their `next_attempt_at` moves ahead as a lease, committed before the send, so two servers
 * never send one row at once and a send a crash cut off is tried again when the lease ends),
 * sends each, and marks it sent, or due again later: a minute, then twice as long each time, at
 * most an hour apart, for three days.
 */
import { and, eq, gte, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { outboxMails } from '../db/schema';
import { levelOfFailure } from '../db/unavailable';
import type { Mail, MailTransport } from './transport';

/** How long a claimed mail is left to its sender before another delivery may take it. */
const LEASE_MS = 5 * 60 * 1000;
const FIRST_RETRY_MS = 60 * 1000;
const LONGEST_RETRY_MS = 60 * 60 * 1000;
/** After this, a mail that never went is given up (and logged as an error). */
const GIVE_UP_AFTER_MS = 3 * 24 * 60 * 60 * 1000;
/** Sent and given-up mail is kept this long (for support and for the per-address limits). */
const KEPT_MS = 30 * 24 * 60 * 60 * 1000;
const BATCH = 20;

export type OutgoingMail = Mail & { kind: string };

/**
 * Stands for the site's address in a mail written inside a transaction, where the request's
 * address is not known; the outbox puts PUBLIC_URL (or the local address) in its place.
 */
export const SITE_URL_MARK = '{{site-url}}';

type Log = {
  info: (details: object, message: string) => void;
  warn: (details: object, message: string) => void;
  error: (details: object, message: string) => void;
};

const consoleLog: Log = {
  info: (details, message) => console.info(message, details),
  warn: (details, message) => console.warn(message, details),
  error: (details, message) => console.error(message, details),
};

/**
 * Writes mail to go out, inside the caller's transaction when given one: the only way a mail
 * enters the outbox (account mails and notifications alike).
 */
export async function writeMails(db: Db | Tx, mails: readonly OutgoingMail[]): Promise<void> {
  if (mails.length === 0) return;
  await db.insert(outboxMails).values(
    mails.map((m) => ({
      toAddress: m.to,
      kind: m.kind,
      subject: m.subject,
      textBody: m.text,
      htmlBody: m.html,
      headers: m.headers ?? {},
    })),
  );
}

export const retryDelayMs = (attempts: number) =>
  Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);

export class Outbox {
  private running: Promise<unknown> = Promise.resolve();
  private again = false;

  constructor(
    private readonly db: Db,
    readonly transport: MailTransport,
    /** The site's address, without a trailing slash, for links in mails. */
    private readonly siteUrl: string,
    /** The server's log once it has one (app.ts sets it). */
    public log: Log = consoleLog,
  ) {}

  /** Mail of `kind` to `to` written since `since` (a per-address limit's count). */
  async countSince(to: string, kind: string, since: Date): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(outboxMails)
      .where(
        and(
          eq(outboxMails.toAddress, to),
          eq(outboxMails.kind, kind),
          gte(outboxMails.createdAt, since),
        ),
      );
    return row?.n ?? 0;
  }

  /**
   * Delivers what is due soon, without waiting: after a mail was written and committed. One
   * delivery at a time; a kick during one runs another after it.
   */
  kick(): void {
    if (this.again) return;
    this.again = true;
    this.running = this.running.then(async () => {
      this.again = false;
      await this.deliver().catch((err) =>
        this.log[levelOfFailure(err)]({ err }, 'mail delivery failed'),
      );
    });
  }

  /** Waits for a delivery under way (on shutdown, and in tests). */
  async idle(): Promise<void> {
    await this.running;
  }

  /**
   * Sends every due mail; answers how many went and how many failed this time. Due by the
   * database's clock unless a time is given (tests give a later one): a mail written a moment
   * ago is due at its own timestamp, in microseconds, which a JavaScript date may be before.
   */
  async deliver(at?: Date): Promise<{ sent: number; failed: number }> {
    const now = at ?? new Date();
    let sent = 0;
    let failed = 0;
    for (;;) {
      const claimed = await this.claim(at, now);
      for (const mail of claimed) {
        try {
          const site = (text: string) => text.replaceAll(SITE_URL_MARK, this.siteUrl);
          const { file } = await this.transport.send({
            to: mail.toAddress,
            subject: mail.subject,
            text: site(mail.textBody),
            html: site(mail.htmlBody),
            headers: Object.fromEntries(
              Object.entries(mail.headers).map(([name, value]) => [name, site(value)]),
            ),
          });
          await this.db
            .update(outboxMails)
            .set({ sentAt: new Date(), lastError: null })
            .where(eq(outboxMails.id, mail.id));
          this.log.info(
            { mailId: mail.id, kind: mail.kind, ...(file ? { file } : {}) },
            'mail sent',
          );
          sent++;
        } catch (err) {
          failed++;
          await this.failed(mail, err, now);
        }
      }
      if (claimed.length < BATCH) break;
    }
    return { sent, failed };
  }

  /** Forgets mail sent or given up a month ago (the timed work's round). */
  async purge(now = new Date()): Promise<void> {
    const before = new Date(now.getTime() - KEPT_MS);
    await this.db
      .delete(outboxMails)
      .where(or(lt(outboxMails.sentAt, before), lt(outboxMails.gaveUpAt, before)));
  }

  /** Takes up to a batch of due mail for this delivery, committed before any is sent. */
  private claim(at: Date | undefined, now: Date) {
    return this.db.transaction(async (tx) => {
      const due = await tx
        .select({ id: outboxMails.id })
        .from(outboxMails)
        .where(
          and(
            isNull(outboxMails.sentAt),
            isNull(outboxMails.gaveUpAt),
            lte(outboxMails.nextAttemptAt, at ?? sql`now()`),
          ),
        )
        .orderBy(outboxMails.nextAttemptAt)
        .limit(BATCH)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      return tx
        .update(outboxMails)
        .set({
          attempts: sql`${outboxMails.attempts} + 1`,
          nextAttemptAt: new Date(now.getTime() + LEASE_MS),
        })
        .where(
          inArray(
            outboxMails.id,
            due.map((d) => d.id),
          ),
        )
        .returning();
    });
  }

  private async failed(mail: typeof outboxMails.$inferSelect, err: unknown, now: Date) {
    const reason = err instanceof Error ? err.message.slice(0, 500) : String(err);
    const givingUp = now.getTime() - mail.createdAt.getTime() >= GIVE_UP_AFTER_MS;
    await this.db
      .update(outboxMails)
      .set({
        lastError: reason,
        nextAttemptAt: new Date(now.getTime() + retryDelayMs(mail.attempts)),
        gaveUpAt: givingUp ? now : null,
      })
      .where(eq(outboxMails.id, mail.id));
    const details = { mailId: mail.id, kind: mail.kind, attempts: mail.attempts, reason };
    if (givingUp) this.log.error(details, 'mail given up after three days of failures');
    else this.log.warn(details, 'mail not sent; tried again later');
  }
}
