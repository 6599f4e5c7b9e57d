/**
 * Views of phones' pages, counted without slowing them (issue 35, decision 055 and its
 * addendum): a view is kept in memory and written with the others every few seconds in one
 * statement, at most one row per person, phone and day; a row already there (another server's,
 * an earlier flush's) is left alone. The buffer is bounded: when full it is written early, and
 * views arriving while it is still full are dropped (a flood costs a few views, never memory).
 * The seller's own views (by their account, or from a browser they signed in from) and those of
 * phones no buyer can see (sold, withdrawn, held, deleted) are left out as they are written:
 * recording a view reads nothing.
 */
import { sql } from 'drizzle-orm';
import { type Db, rowsOf, uuidArray } from '../db/client';

/** User agents that say they are robots, HeadlessChrome included (decision 055). */
export const BOT_AGENT =
  /bot|crawl|spider|slurp|scrap|fetch|preview|monitor|lighthouse|headless|phantom|curl|wget|python|java\/|go-http|axios|node-fetch|undici|autocannon/i;

/** Whether a user agent is a person's browser as far as it says: not empty, not a robot. */
export const countsAsPerson = (userAgent: string | undefined): boolean =>
  userAgent !== undefined && userAgent.trim() !== '' && !BOT_AGENT.test(userAgent);

/**
 * One view as buffered: the phone, the day (UTC), the viewer's fingerprint, their account when
 * a token named it, and the fingerprint of the browser's device cookie when it brought one (as
 * `account_devices` keeps it: the seller's own browsers are known by it).
 */
export type View = {
  productId: string;
  day: string;
  viewer: string;
  accountId: string | null;
  deviceHash: string | null;
};

/**
 * Values as one PostgreSQL text array parameter. Dates, fingerprints (base64url) and ids only:
 * nothing to escape inside the quotes.
 */
const textArray = (values: readonly string[]) => `{${values.map((v) => `"${v}"`).join(',')}}`;

export type ViewCounterOptions = {
  db: Db;
  /** The most views kept between writes. */
  maxBuffered?: number;
  /** How often the buffer is written. */
  flushMs?: number;
  /**
   * The viewer of an account on a day (`Fingerprints.viewer`): a browser's view whose device only
   * one account signed in from is counted as that account's, so a person is one viewer on all the
   * browsers they were noted on.
   */
  accountViewer?: (day: string, accountId: string) => string;
  onError?: (err: unknown) => void;
};

export class ViewCounter {
  readonly #db: Db;
  readonly #max: number;
  readonly #flushMs: number;
  readonly #accountViewer: ((day: string, accountId: string) => string) | undefined;
  readonly #onError: (err: unknown) => void;
  /** Keyed by phone, day and viewer: a person's second view before a write costs nothing. */
  #buffer = new Map<string, View>();
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();
  /** Views dropped because the buffer was full, since the server started. */
  dropped = 0;

  constructor({
    db,
    maxBuffered = 10_000,
    flushMs = 5_000,
    accountViewer,
    onError = () => {},
  }: ViewCounterOptions) {
    this.#db = db;
    this.#max = maxBuffered;
    this.#flushMs = flushMs;
    this.#accountViewer = accountViewer;
    this.#onError = onError;
  }

  /** How many views wait to be written. */
  get buffered(): number {
    return this.#buffer.size;
  }

  /** Keeps a view to be written with the next batch; false when it was dropped (buffer full). */
  record(view: View): boolean {
    const key = `${view.productId}|${view.day}|${view.viewer}`;
    if (this.#buffer.has(key)) return true;
    if (this.#buffer.size >= this.#max) {
      this.dropped += 1;
      void this.flush();
      return false;
    }
    this.#buffer.set(key, view);
    if (this.#buffer.size >= this.#max) void this.flush();
    else this.#timer ??= setTimeout(() => void this.flush(), this.#flushMs).unref();
    return true;
  }

  /** Writes the buffered views now (the timer, a full buffer, shutdown, tests). */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(() => this.#write());
    return this.#flushing;
  }

  async #write(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#buffer.size === 0) return;
    let views = [...this.#buffer.values()];
    this.#buffer = new Map();
    try {
      views = await this.#asAccounts(views);
      await rowsOf(
        this.#db,
        sql`insert into product_views (product_id, day, viewer)
          select v.product_id, v.day, v.viewer
          from unnest(
            ${uuidArray(views.map((v) => v.productId))}::uuid[],
            ${textArray(views.map((v) => v.day))}::date[],
            ${textArray(views.map((v) => v.viewer))}::text[],
            ${textArray(views.map((v) => v.accountId ?? ''))}::text[],
            ${textArray(views.map((v) => v.deviceHash ?? ''))}::text[]
          ) as v(product_id, day, viewer, account_id, device_hash)
          join products p on p.id = v.product_id and p.status = 'available'
          join users s on s.email = p.seller_email
          where s.id::text <> v.account_id
            and not exists (
              select 1 from account_devices d
              where d.user_id = s.id and d.device_hash = v.device_hash
            )
          on conflict do nothing`,
      );
    } catch (err) {
      this.#onError(err);
    }
  }

  /**
   * The views of browsers whose device one account alone signed in from, as that account's: one
   * read of the batch's devices, off the pages' path, so a person is one viewer on all their
   * noted browsers. A device several accounts used (a shared computer) stays a browser of its own.
   */
  async #asAccounts(views: View[]): Promise<View[]> {
    const accountViewer = this.#accountViewer;
    const devices = [...new Set(views.flatMap((v) => (v.deviceHash ? [v.deviceHash] : [])))];
    if (!accountViewer || devices.length === 0) return views;
    const rows = await rowsOf<{ device_hash: string; user_id: string }>(
      this.#db,
      sql`select device_hash, min(user_id::text) as user_id from account_devices
        where device_hash = any(${textArray(devices)}::text[])
        group by device_hash having count(*) = 1`,
    );
    const accountOf = new Map(rows.map((r) => [r.device_hash, r.user_id]));
    const byKey = new Map<string, View>();
    for (const view of views) {
      const owner = accountOf.get(view.deviceHash ?? '');
      // A token naming someone else on a device noted for one account only: that someone's
      // browser is not noted yet, and it stays a browser of its own.
      const counted =
        owner && (view.accountId === null || view.accountId === owner)
          ? { ...view, accountId: owner, viewer: accountViewer(view.day, owner) }
          : view;
      byKey.set(`${counted.productId}|${counted.day}|${counted.viewer}`, counted);
    }
    return [...byKey.values()];
  }

  /** Writes what is left and stops (the server's close). */
  async close(): Promise<void> {
    await this.flush();
  }
}
