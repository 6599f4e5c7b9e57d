/**
 * Live updates (issue 20): each signed-in page may hold one stream of server-sent events, and is
 * told on it when something new is there for its person, whichever server wrote it. The database
 * itself sends `pg_notify('live', {"u", "s", "id"})` in the transaction of each change
 * (migration 0024, decision 043): a subject (src/shared/live.ts) and the thing's id. Every server
 * LISTENs and tells the streams of that person it holds. An event carries no content, only "look
 * at this": the page asks the usual calls, so nothing reaches a stream that the person could not
 * read anyway.
 *
 * Streams are bounded (a few per person, a ceiling in all), pinged every 25 seconds so proxies
 * keep them open, and ended on shutdown. Pages also ask on their own every half minute, which
 * covers a stream a proxy will not carry and an event sent while a listener reconnected.
 */
import type { ServerResponse } from 'node:http';
import { and, gt, inArray, sql } from 'drizzle-orm';
import { isLiveSubject, LIVE_RECONNECTED, type LiveEvent } from '../../shared/live';
import type { Database } from '../db/client';
import { authSessions, users } from '../db/schema';

export const LIVE_CHANNEL = 'live';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A notification's payload as the triggers write it; anything else on the channel is dropped. */
export function parseLivePayload(payload: string): (LiveEvent & { userId: string }) | null {
  try {
    const { u, s, id } = JSON.parse(payload) as Record<string, unknown>;
    if (typeof u !== 'string' || !UUID.test(u) || typeof s !== 'string' || !isLiveSubject(s))
      return null;
    return { userId: u, subject: s, id: typeof id === 'string' && UUID.test(id) ? id : null };
  } catch {
    return null;
  }
}
/** Tabs one person may keep live at once; the oldest is ended for a new one past this. */
const STREAMS_PER_PERSON = 5;
/** Streams one server holds in all; past this a new one is refused (the page polls instead). */
const STREAMS_IN_ALL = 5000;
const PING_MS = 25_000;

/**
 * Writes to a stream still open. One this server has ended (signed out, a sixth tab, shutdown)
 * stays listed until its connection closes, a moment later; a write to it meanwhile would be
 * an error that, unheard, ends the process.
 */
function send(stream: ServerResponse, text: string): void {
  if (!stream.writableEnded && !stream.destroyed) stream.write(text);
}

export class LiveHub {
  private readonly streams = new Map<string, ServerResponse[]>();
  /** The identity session each stream was opened under: it ends when that session does. */
  private readonly sessions = new Map<ServerResponse, string>();
  private total = 0;
  private stopListening: (() => Promise<void>) | undefined;
  private readonly ping: NodeJS.Timeout;

  constructor(private readonly database: Pick<Database, 'listen' | 'db'>) {
    this.ping = setInterval(() => void this.tick(), PING_MS);
    this.ping.unref();
  }

  /** One ping round: ends the streams whose session has ended, pings the rest, notes who is live. */
  async tick(): Promise<void> {
    await this.endSignedOut();
    this.each((stream) => send(stream, ': ping\n\n'));
    await this.seen([...this.streams.keys()]);
  }

  /**
   * Notes that these people have a live page open now, for every server to read: a message to
   * someone seen within the minute is not mailed (notify/notify.ts).
   */
  private async seen(userIds: string[]): Promise<void> {
    if (userIds.length === 0) return;
    await this.database.db
      .update(users)
      .set({ liveSeenAt: sql`now()` })
      .where(inArray(users.id, userIds))
      .catch(() => {});
  }

  async start(): Promise<void> {
    this.stopListening = await this.database.listen(
      LIVE_CHANNEL,
      (payload) => {
        const event = parseLivePayload(payload);
        if (event) this.tell(event.userId, event);
      },
      // The listener was lost (a failover, a restart of PostgreSQL) and listens again: what
      // changed meanwhile was not heard, so every page asks again for all it shows.
      () => this.each((stream) => send(stream, `event: ${LIVE_RECONNECTED}\ndata: {}\n\n`)),
    );
  }

  /** Whether a new stream may open now. */
  get full(): boolean {
    return this.total >= STREAMS_IN_ALL;
  }

  /** The streams this server holds open (the metrics' gauge). */
  get open(): number {
    return this.total;
  }

  /**
   * Ends the streams whose session has ended (signed out, a password reset, the account deleted
   * or banned): a stream must not outlive what let it open, nor keep its person "online".
   */
  async endSignedOut(): Promise<void> {
    const open = [...new Set(this.sessions.values())];
    if (open.length === 0) return;
    const alive = await this.database.db
      .select({ id: authSessions.id })
      .from(authSessions)
      .where(and(inArray(authSessions.id, open), gt(authSessions.expiresAt, sql`now()`)))
      .catch(() => null);
    if (!alive) return;
    const living = new Set(alive.map((s) => s.id));
    for (const [stream, session] of this.sessions) if (!living.has(session)) stream.end();
  }

  /** Holds `stream` for `userId` until it closes (the caller wrote its head). */
  attach(userId: string, sessionId: string, stream: ServerResponse): void {
    this.sessions.set(stream, sessionId);
    const held = this.streams.get(userId) ?? [];
    if (held.length >= STREAMS_PER_PERSON) held[0]?.end();
    held.push(stream);
    this.streams.set(userId, held);
    this.total++;
    stream.once('close', () => this.detach(userId, stream));
    // A connection reset mid-write ends this stream, not the process (an unheard 'error' throws).
    stream.on('error', () => this.detach(userId, stream));
    send(stream, 'retry: 5000\n\n');
    void this.seen([userId]);
  }

  /** Tells every stream of `userId` that `event`'s subject changed. */
  tell(userId: string, event: LiveEvent): void {
    const text = `event: ${event.subject}\ndata: ${JSON.stringify({ id: event.id })}\n\n`;
    for (const stream of this.streams.get(userId) ?? []) send(stream, text);
  }

  /** Closed (the server is stopping): no new stream opens; its pages reconnect to another. */
  closed = false;

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.ping);
    this.each((stream) => stream.end());
    await this.stopListening?.();
  }

  private detach(userId: string, stream: ServerResponse): void {
    this.sessions.delete(stream);
    const held = this.streams.get(userId);
    if (!held?.includes(stream)) return;
    const left = held.filter((s) => s !== stream);
    if (left.length > 0) this.streams.set(userId, left);
    else this.streams.delete(userId);
    this.total--;
  }

  private each(act: (stream: ServerResponse) => void): void {
    for (const held of this.streams.values()) for (const stream of held) act(stream);
  }
}
