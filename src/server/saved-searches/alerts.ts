/**
 * Alerts of saved searches (issue 33, decision 049). The products' trigger queues every phone
 * listed, back on sale or made cheaper, in the transaction of that change; a round of the alert
 * work takes a batch of the queue (`for update skip locked`: whichever server takes a phone,
 * only it does), matches each phone against the saved searches in memory, and in the same
 * transaction records each person's alert, tells them (bell and mail, or the daily digest later)
 * and empties those queue entries. A crash before the commit leaves the phones queued; one after
 * it has told everyone exactly once.
 *
 * A person hears of a phone once, whichever and however many of their searches it matches; a
 * price drop of it once more, at most once a day. Their own phones, a paused search, a deleted
 * account (its searches go with it) are never told.
 */
import { sql } from 'drizzle-orm';
import { USER_STATUS_VERIFIED } from '../../shared/constants';
import { type Db, rowsOf, type Tx, uuidArray } from '../db/client';
import { savedSearchAlerts } from '../db/schema';
import { type Notice, notify } from '../notify/notify';
import { dollars, phoneName } from '../repositories/money';
import type { PhoneFacts } from './matcher';
import type { SavedSearchIndex } from './saved-search-index';

/** Phones taken from the queue in one transaction. */
const BATCH = 100;
/** Alerts written (and told) in one statement. */
const TELL_AT_ONCE = 500;
/** The most phones a digest names; the rest are "and N more". */
const DIGEST_NAMED = 5;

type PhoneRow = {
  id: string;
  model_name: string;
  storage: string;
  condition: string;
  category_id: string;
  ram: string;
  resell_price_cents: number;
  battery: number;
  battery_health: number | null;
  location_lower: string;
  verified: boolean;
  seller_id: string | null;
  words: string[];
};

/** The phones for sale among `ids`, as the matcher sees them (and what a notice names). */
export async function phoneFactsOf(
  db: Db | Tx,
  ids: readonly string[],
): Promise<(PhoneFacts & { row: PhoneRow })[]> {
  const rows = await rowsOf<PhoneRow>(
    db,
    sql`select p.id, p.model_name, p.storage, p.condition, p.category_id, p.ram,
               p.resell_price_cents, p.battery, p.battery_health,
               lower(p.location) as location_lower,
               coalesce(u.user_status = ${USER_STATUS_VERIFIED}, false) as verified,
               u.id as seller_id, tsvector_to_array(p.search_vector) as words
        from products p left join users u on u.email = p.seller_email
        where p.id = any(${uuidArray(ids)}::uuid[]) and p.status = 'available'`,
  );
  return rows.map((row) => ({
    row,
    categoryId: row.category_id,
    ram: row.ram,
    storage: row.storage,
    condition: row.condition,
    priceCents: row.resell_price_cents,
    battery: row.battery,
    batteryHealth: row.battery_health,
    locationLower: row.location_lower,
    verified: row.verified,
    words: new Set(row.words),
  }));
}

const nameOf = (row: { model_name: string; storage: string; condition: string }) =>
  phoneName({ modelName: row.model_name, storage: row.storage, condition: row.condition });

export type AlertWork = {
  db: Db;
  index: SavedSearchIndex;
  digestHours: number;
  /** A phone whose alerts could not be told this round (logged by the caller). */
  onPhoneError?: (err: unknown, productId: string, dropped: boolean) => void;
};

/** Rounds a queued phone may fail before it is dropped, so it never holds up the queue. */
export const MAX_ATTEMPTS = 5;

type Queued = { seq: string; product_id: string; attempts: number };
type Match = { searchId: string; phone: PhoneRow };

/**
 * One batch of the queue, leaving out the entries that failed earlier in this round (`failing`,
 * which it adds to); answers how many entries it took (0: nothing left for this round).
 */
async function alertBatch(work: AlertWork, failing: string[]): Promise<number> {
  const searches = await work.index.current();
  return work.db.transaction(async (tx) => {
    const queued = await rowsOf<Queued>(
      tx,
      sql`select seq, product_id, attempts from listing_alert_queue
          where seq <> all(${`{${failing.join(',')}}`}::bigint[])
          order by seq limit ${BATCH} for update skip locked`,
    );
    if (queued.length === 0) return 0;
    const phones =
      searches.size === 0
        ? []
        : await phoneFactsOf(
            tx,
            queued.map((q) => q.product_id),
          );
    const matchesOf = (phone: (typeof phones)[number]): Match[] =>
      searches
        .match(phone)
        .filter((m) => m.owner !== phone.row.seller_id)
        .map((m) => ({ searchId: m.id, phone: phone.row }));
    // The whole batch at once (a savepoint); should that fail, phone by phone, so that one
    // phone's failure leaves the others told and only it to try again.
    const failed = new Set<string>();
    try {
      await tx.transaction(async (sp) => {
        const matched = phones.flatMap(matchesOf);
        if (matched.length > 0) await tell(sp, matched);
      });
    } catch {
      for (const phone of phones) {
        try {
          await tx.transaction(async (sp) => {
            const matched = matchesOf(phone);
            if (matched.length > 0) await tell(sp, matched);
          });
        } catch (err) {
          failed.add(phone.row.id);
          const entry = queued.find((q) => q.product_id === phone.row.id);
          work.onPhoneError?.(err, phone.row.id, (entry?.attempts ?? 0) + 1 >= MAX_ATTEMPTS);
        }
      }
    }
    const retry = queued.filter((q) => failed.has(q.product_id) && q.attempts + 1 < MAX_ATTEMPTS);
    const done = queued.filter((q) => !retry.includes(q));
    const seqs = (list: Queued[]) => `{${list.map((q) => q.seq).join(',')}}`;
    if (done.length > 0)
      await tx.execute(
        sql`delete from listing_alert_queue where seq = any(${seqs(done)}::bigint[])`,
      );
    if (retry.length > 0)
      await tx.execute(
        sql`update listing_alert_queue set attempts = attempts + 1
            where seq = any(${seqs(retry)}::bigint[])`,
      );
    failing.push(...retry.map((q) => q.seq));
    return queued.length;
  });
}

/**
 * Records and tells the alerts of these matches: the searches are read again here (a search
 * paused or deleted since the index read it tells nothing), grouped by person and phone.
 */
async function tell(tx: Tx, matched: Match[]): Promise<void> {
  const searches = await rowsOf<{ id: string; user_id: string; name: string; frequency: string }>(
    tx,
    sql`select id, user_id, name, frequency from saved_searches
        where id = any(${uuidArray([...new Set(matched.map((m) => m.searchId))])}::uuid[])
          and not paused
        order by seq`,
  );
  const byId = new Map(searches.map((s) => [s.id, s]));
  const alerts = new Map<string, Alert>();
  for (const { searchId, phone } of matched) {
    const search = byId.get(searchId);
    if (!search) continue;
    const key = `${search.user_id}/${phone.id}`;
    const alert = alerts.get(key) ?? {
      userId: search.user_id,
      phone,
      searchIds: [],
      names: [],
      daily: true,
    };
    alert.searchIds.push(search.id);
    alert.names.push(search.name);
    // At once when any of the person's searches that match it says so.
    alert.daily &&= search.frequency === 'daily';
    alerts.set(key, alert);
  }
  const list = [...alerts.values()];
  // In slices: a phone many buyers wait for is thousands of rows, past a statement's parameters.
  for (let i = 0; i < list.length; i += TELL_AT_ONCE)
    await tellSome(tx, list.slice(i, i + TELL_AT_ONCE));
}

type Alert = {
  userId: string;
  phone: PhoneRow;
  searchIds: string[];
  names: string[];
  daily: boolean;
};

async function tellSome(tx: Tx, list: Alert[]): Promise<void> {
  const alerts = new Map(list.map((a) => [`${a.userId}/${a.phone.id}`, a]));
  // New: inserted (told). Known already: told again only as a drop (below).
  const told = await tx
    .insert(savedSearchAlerts)
    .values(
      list.map((a) => ({
        userId: a.userId,
        productId: a.phone.id,
        searchIds: a.searchIds,
        priceCents: a.phone.resell_price_cents,
        daily: a.daily,
      })),
    )
    .onConflictDoUpdate({
      target: [savedSearchAlerts.userId, savedSearchAlerts.productId],
      set: {
        priceCents: sql`excluded.price_cents`,
        searchIds: sql`excluded.search_ids`,
        daily: sql`excluded.daily`,
        dropAlertedAt: sql`now()`,
        digestedAt: sql`case when excluded.daily then null else ${savedSearchAlerts.digestedAt} end`,
      },
      // Known at a higher price, and last told of a day ago or more: a drop to tell.
      setWhere: sql`excluded.price_cents < ${savedSearchAlerts.priceCents}
        and coalesce(${savedSearchAlerts.dropAlertedAt}, ${savedSearchAlerts.alertedAt})
            <= now() - interval '1 day'`,
    })
    .returning({
      userId: savedSearchAlerts.userId,
      productId: savedSearchAlerts.productId,
      inserted: sql<boolean>`(xmax = 0)`,
    });
  const notices: Notice[] = told.flatMap((row) => {
    const alert = alerts.get(`${row.userId}/${row.productId}`);
    if (!alert || alert.daily) return [];
    const price = dollars(alert.phone.resell_price_cents);
    const name = `“${alert.names[0]}”`;
    return [
      {
        userId: alert.userId,
        kind: 'saved-search' as const,
        text: row.inserted
          ? `${nameOf(alert.phone)} for ${price} matches your saved search ${name}.`
          : `${nameOf(alert.phone)} matching your saved search ${name} is now ${price}.`,
        link: `/product/${alert.phone.id}`,
      },
    ];
  });
  await notify(tx, notices);
}

/** Matches every queued phone; answers how many it took. */
export async function runAlerts(work: AlertWork): Promise<number> {
  // A look first, with no lock: most calls that end in a kick queued nothing.
  const [queued] = await rowsOf<{ any: boolean }>(
    work.db,
    sql`select exists (select 1 from listing_alert_queue) as any`,
  );
  if (!queued?.any) return 0;
  let taken = 0;
  const failing: string[] = [];
  for (let n = await alertBatch(work, failing); n > 0; n = await alertBatch(work, failing))
    taken += n;
  return taken - failing.length;
}

/**
 * The daily digests: each person whose oldest phone waiting for a digest is `digestHours` old,
 * and whose last digest went out `digestHours` ago or more, gets one notification (and mail)
 * naming the phones still for sale. Answers how many digests went out.
 */
export async function runDigests(db: Db, digestHours: number, now = new Date()): Promise<number> {
  const due = new Date(now.getTime() - digestHours * 3_600_000);
  const people = await rowsOf<{ user_id: string }>(
    db,
    sql`select a.user_id from saved_search_alerts a
        left join saved_search_digests d on d.user_id = a.user_id
        where a.daily and a.digested_at is null
        group by a.user_id, d.sent_at
        having min(a.alerted_at) <= ${due.toISOString()}::timestamptz
           and (d.sent_at is null or d.sent_at <= ${due.toISOString()}::timestamptz)
        limit 100`,
  );
  let sent = 0;
  for (const { user_id: userId } of people) {
    const went = await db.transaction(async (tx) => {
      const waiting = await rowsOf<{ product_id: string }>(
        tx,
        sql`select product_id from saved_search_alerts
            where user_id = ${userId} and daily and digested_at is null
            order by alerted_at for update skip locked`,
      );
      if (waiting.length === 0) return false;
      const ids = waiting.map((w) => w.product_id);
      const phones = await rowsOf<PhoneRow>(
        tx,
        sql`select id, model_name, storage, condition, resell_price_cents from products
            where id = any(${uuidArray(ids)}::uuid[]) and status = 'available'
            order by resell_price_cents`,
      );
      await tx.execute(
        sql`update saved_search_alerts set digested_at = ${now.toISOString()}::timestamptz
            where user_id = ${userId} and product_id = any(${uuidArray(ids)}::uuid[])`,
      );
      if (phones.length === 0) return false;
      await tx.execute(
        sql`insert into saved_search_digests (user_id, sent_at) values (${userId}, ${now.toISOString()}::timestamptz)
            on conflict (user_id) do update set sent_at = excluded.sent_at`,
      );
      const named = phones
        .slice(0, DIGEST_NAMED)
        .map((p) => `${nameOf(p)} for ${dollars(p.resell_price_cents)}`);
      const more = phones.length - named.length;
      const count = phones.length === 1 ? '1 phone matches' : `${phones.length} phones match`;
      await notify(tx, [
        {
          userId,
          kind: 'saved-search-digest',
          text: `${count} your saved searches today: ${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}.`,
          link: '/dashboard/saved-searches',
        },
      ]);
      return true;
    });
    if (went) sent++;
  }
  return sent;
}

/**
 * The alert work of one server: a round in the timed work, and one soon after any call that may
 * have listed or repriced a phone (`kick`), so a buyer hears within seconds, not at the next
 * round. One round at a time; a kick during one runs another after it.
 */
export class SavedSearchAlerts {
  private running: Promise<unknown> = Promise.resolve();
  private again = false;

  constructor(
    private readonly work: AlertWork,
    /** Called when a round told someone (their mail is in the outbox now). */
    private readonly told: () => void,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Every queued phone matched, then the digests due. */
  round(): Promise<void> {
    const round = this.running.then(async () => {
      const taken = await runAlerts(this.work);
      const digests = await runDigests(this.work.db, this.work.digestHours);
      if (taken > 0 || digests > 0) this.told();
    });
    this.running = round.catch(() => undefined);
    return round;
  }

  /** The queue matched soon, after this server's round under way. */
  kick(): void {
    if (this.again) return;
    this.again = true;
    this.running = this.running.then(async () => {
      this.again = false;
      await runAlerts(this.work)
        .then((taken) => taken > 0 && this.told())
        .catch(this.onError);
    });
  }

  /** Waits for a round under way (on shutdown, and in tests). */
  async idle(): Promise<void> {
    await this.running;
  }
}
