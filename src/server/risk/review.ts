/**
 * The admin's review queue (issue 34, decision 052): listings and accounts with uncleared risk
 * signals or open reports, riskiest first, each with its signals in plain words, its photos
 * beside the ones they match, its seller's history and its reports; and the admin's actions on
 * them, each in one transaction with its record (who, when, what, on what).
 */
import { eq, sql } from 'drizzle-orm';
import type { PaginationQuery } from '../../shared/api';
import { next } from '../../shared/order-process';
import type { PhotoMatch, ReviewActionInput, ReviewItem, ReviewRecord } from '../../shared/risk';
import { type Db, rowsOf, type Tx, uuidArray } from '../db/client';
import { users } from '../db/schema';
import { DomainError } from '../domain/domain-error';
import type { LoosePhotos } from '../images/loose-photos';
import type { Caller } from '../plugins/auth';
import { insertBlockedImei } from '../repositories/imeis';
import { phoneName, toDollars } from '../repositories/money';
import { cursorOf, type Page, pageOf } from '../repositories/page';
import { priceGuideFor } from '../repositories/price-guide';
import { setProductStatus } from '../repositories/products';
import { decideReports } from '../repositories/reports';
import { deleteAccount } from '../repositories/users';
import { sentenceOf } from './rules';

/** The most entries the queue answers at once (the riskiest). */
export const REVIEW_QUEUE_MAX = 100;

type Subject = { kind: 'listing' | 'account'; id: string; score: number };

/** The queue's subjects, riskiest first: uncleared signals or open reports, still there. */
async function subjects(db: Db): Promise<Subject[]> {
  return rowsOf<Subject>(
    db,
    sql`with own as (
          select subject_kind as kind, subject_id as id,
                 coalesce(sum(weight) filter (where cleared_at is null), 0)::int as score,
                 bool_or(cleared_at is null) as open
          from risk_signals where subject_kind in ('listing', 'account')
          group by subject_kind, subject_id
        ), reported as (
          select distinct case when kind = 'listing' then 'listing' else 'account' end as kind,
                 case when kind = 'listing' then product_id else seller_id end as id
          from reports where status = 'open'
        ), listed as (
          select 'listing'::text as kind, p.id,
                 coalesce(o.score, 0) + coalesce(a.score, 0) as score
          from products p
          join users u on u.email = p.seller_email
          left join own o on o.kind = 'listing' and o.id = p.id
          left join own a on a.kind = 'account' and a.id = u.id
          where p.status in ('available', 'held')
            and (o.open or p.id in (select id from reported where kind = 'listing'))
        ), accounts as (
          select 'account'::text as kind, u.id, coalesce(a.score, 0) as score
          from users u left join own a on a.kind = 'account' and a.id = u.id
          where a.open or u.id in (select id from reported where kind = 'account')
        )
        select kind, id, score from listed
        union all select kind, id, score from accounts
        order by score desc, id
        limit ${REVIEW_QUEUE_MAX}`,
  );
}

type SignalRow = {
  subject_kind: string;
  subject_id: string;
  rule: string;
  weight: number;
  detail: Record<string, unknown>;
  created_at: Date;
};

type SellerRow = {
  id: string;
  name: string;
  email: string;
  created_at: Date;
  listings: number;
  sales: number;
  disputes: number;
};

/** The queue as the admin reads it. */
export async function reviewQueue(db: Db): Promise<ReviewItem[]> {
  const found = await subjects(db);
  if (found.length === 0) return [];
  const listingIds = found.filter((s) => s.kind === 'listing').map((s) => s.id);
  const listings = await rowsOf<{
    id: string;
    model_name: string;
    storage: string;
    condition: string;
    resell_price_cents: number;
    photos: string[];
    status: string;
    created_at: Date;
    seller_id: string;
  }>(
    db,
    sql`select p.id, p.model_name, p.storage, p.condition, p.resell_price_cents, p.photos,
               p.status, p.created_at, u.id as seller_id
        from products p join users u on u.email = p.seller_email
        where p.id = any(${uuidArray(listingIds)}::uuid[])`,
  );
  const byListing = new Map(listings.map((l) => [l.id, l]));
  const sellerIds = [
    ...new Set([
      ...found.filter((s) => s.kind === 'account').map((s) => s.id),
      ...listings.map((l) => l.seller_id),
    ]),
  ];
  const sellers = new Map(
    (
      await rowsOf<SellerRow>(
        db,
        sql`select u.id, u.name, u.email, u.created_at,
               (select count(*)::int from products p where p.seller_email = u.email) as listings,
               (select count(*)::int from orders o join products p on p.id = o.product_id
                 where p.seller_email = u.email and o.stage in ('completed', 'disputed', 'refunded')) as sales,
               (select count(*)::int from orders o join products p on p.id = o.product_id
                 where p.seller_email = u.email and o.stage in ('disputed', 'refunded')) as disputes
            from users u where u.id = any(${uuidArray(sellerIds)}::uuid[])`,
      )
    ).map((s) => [s.id, s]),
  );
  const signals = await rowsOf<SignalRow>(
    db,
    sql`select subject_kind, subject_id, rule, weight, detail, created_at from risk_signals
        where cleared_at is null and subject_id = any(${uuidArray([...listingIds, ...sellerIds])}::uuid[])
        order by weight desc, seq`,
  );
  const reports = await rowsOf<{
    id: string;
    product_id: string | null;
    seller_id: string | null;
    kind: string;
    reason: ReviewItem['reports'][number]['reason'];
    note: string;
    reporter_name: string;
    created_at: Date;
  }>(
    db,
    sql`select r.id, r.product_id, r.seller_id, r.kind, r.reason, r.note, r.created_at,
               u.name as reporter_name
        from reports r join users u on u.id = r.reporter_id
        where r.status = 'open'
          and (r.product_id = any(${uuidArray(listingIds)}::uuid[])
            or (r.kind = 'seller' and r.seller_id = any(${uuidArray(sellerIds)}::uuid[])))
        order by r.seq`,
  );
  const items: ReviewItem[] = [];
  for (const subject of found) {
    const listing = subject.kind === 'listing' ? byListing.get(subject.id) : undefined;
    const seller = sellers.get(listing ? listing.seller_id : subject.id);
    if (!seller || (subject.kind === 'listing' && !listing)) continue;
    const own = (kind: string, id: string) =>
      signals.filter((s) => s.subject_kind === kind && s.subject_id === id);
    const shown = listing
      ? [...own('listing', listing.id), ...own('account', seller.id)]
      : own('account', seller.id);
    const guide = listing
      ? await priceGuideFor(db, {
          modelName: listing.model_name,
          storage: listing.storage as never,
          condition: listing.condition as never,
        })
      : null;
    const matches = listing
      ? own('listing', listing.id).flatMap(
          (s) => (s.detail.matches as PhotoMatch[] | undefined) ?? [],
        )
      : [];
    items.push({
      kind: subject.kind,
      id: subject.id,
      score: subject.score,
      held: listing?.status === 'held',
      title: listing
        ? phoneName({
            modelName: listing.model_name,
            storage: listing.storage,
            condition: listing.condition,
          })
        : seller.name,
      listing: listing
        ? {
            _id: listing.id,
            price: toDollars(listing.resell_price_cents),
            guidePrice: guide?.median ?? null,
            photos: listing.photos,
            status: listing.status,
            createdAt: new Date(listing.created_at).toISOString(),
          }
        : null,
      seller: {
        _id: seller.id,
        name: seller.name,
        email: seller.email,
        joinedAt: new Date(seller.created_at).toISOString(),
        listings: seller.listings,
        sales: seller.sales,
        disputes: seller.disputes,
      },
      signals: shown.map((s) => ({
        rule: s.rule,
        sentence: sentenceOf(s.rule, s.detail),
        weight: s.weight,
        at: new Date(s.created_at).toISOString(),
      })),
      photoMatches: matches,
      reports: reports
        .filter((r) =>
          listing ? r.product_id === listing.id : r.kind === 'seller' && r.seller_id === seller.id,
        )
        .map((r) => ({
          _id: r.id,
          reason: r.reason,
          note: r.note,
          reporterName: r.reporter_name,
          createdAt: new Date(r.created_at).toISOString(),
        })),
    });
  }
  return items;
}

type Act = {
  db: Db;
  loose: Pick<LoosePhotos, 'note'>;
  admin: Caller;
  isAdmin: (email: string) => Promise<boolean>;
};

/** The admin's action from the queue, with its record; 404 for a subject not there, 409 where it cannot. */
export async function takeReviewAction(
  { db, loose, admin, isAdmin }: Act,
  input: Required<ReviewActionInput>,
): Promise<void> {
  const { target, id, action, note } = input;
  // An admin is never banned: asked before the transaction (PGlite has one connection).
  if (action === 'ban') {
    const [account] = await rowsOf<{ email: string }>(
      db,
      target === 'listing'
        ? sql`select u.email from products p join users u on u.email = p.seller_email where p.id = ${id}`
        : sql`select email from users where id = ${id}`,
    );
    if (account && (await isAdmin(account.email)))
      throw DomainError.forbidden('An admin account cannot be banned');
  }
  await db.transaction(async (tx) => {
    const record = (subject: string, on: typeof target = target, subjectId = id) =>
      tx.execute(
        sql`insert into review_actions (admin_id, admin_name, target, subject_id, subject, action, note)
            values (${admin.id}, ${admin.name}, ${on}, ${subjectId}, ${subject}, ${action}, ${note})`,
      );
    if (target === 'report') {
      if (action !== 'dismiss') throw DomainError.badRequest('A report can only be dismissed');
      const [report] = await rowsOf<{ subject_name: string; status: string }>(
        tx,
        sql`select subject_name, status from reports where id = ${id} for update`,
      );
      if (!report) throw DomainError.notFound('No such report');
      if (report.status !== 'open') throw DomainError.conflict('This report is decided already');
      await decideReports(tx, { reportId: id }, 'dismissed');
      await record(report.subject_name);
      return;
    }
    if (action === 'dismiss') throw DomainError.badRequest('Only a report can be dismissed');
    if (target === 'listing') {
      const [listing] = await rowsOf<{
        id: string;
        status: 'available' | 'held' | 'sold' | 'withdrawn';
        model_name: string;
        storage: string;
        condition: string;
        seller_id: string | null;
      }>(
        tx,
        sql`select p.id, p.status, p.model_name, p.storage, p.condition, u.id as seller_id
            from products p left join users u on u.email = p.seller_email
            where p.id = ${id} for update of p`,
      );
      if (!listing) throw DomainError.notFound('No such listing');
      if (action === 'ban') {
        if (!listing.seller_id) throw DomainError.notFound('No such account');
        await ban(tx, { loose, admin }, listing.seller_id, record);
        return;
      }
      if (listing.status !== 'available' && listing.status !== 'held')
        throw DomainError.conflict(`This listing is ${listing.status}`);
      if (action === 'clear') {
        if (listing.status === 'held')
          await setProductStatus(tx, listing.id, next('product', 'held', 'clear'));
        // The listing's own signals; its seller's are the account's to clear (a listing cleared
        // is no pass for the next one).
        await clearSignals(tx, [listing.id]);
        await decideReports(tx, { productId: listing.id }, 'dismissed');
      } else {
        await setProductStatus(tx, listing.id, next('product', listing.status, 'withdraw'));
        await decideReports(tx, { productId: listing.id }, 'upheld');
      }
      await record(
        phoneName({
          modelName: listing.model_name,
          storage: listing.storage,
          condition: listing.condition,
        }),
      );
      return;
    }
    // An account.
    if (action === 'withdraw') throw DomainError.badRequest('Withdraw a listing, not an account');
    if (action === 'ban') {
      await ban(tx, { loose, admin }, id, record);
      return;
    }
    const [account] = await rowsOf<{ name: string }>(
      tx,
      sql`select name from users where id = ${id}`,
    );
    if (!account) throw DomainError.notFound('No such account');
    await clearSignals(tx, [id]);
    await decideReports(tx, { sellerId: id }, 'dismissed');
    await record(account.name);
  });
}

/** The admin accepted these subjects' signals: they hold nothing again unless they grow. */
async function clearSignals(tx: Tx, subjectIds: (string | null)[]): Promise<void> {
  const ids = subjectIds.filter((s): s is string => s !== null);
  await tx.execute(
    sql`update risk_signals set cleared_at = now()
        where cleared_at is null and subject_id = any(${uuidArray(ids)}::uuid[])`,
  );
}

/**
 * Bans a seller from the queue: their client addresses, devices and cards kept as banned marks (a
 * new account seen with one is a signal), the IMEIs of their phones blocked, the reports about
 * them upheld, then the account deleted and its address banned as the admin's ban does (its
 * listings, addresses and devices go with it).
 */
async function ban(
  tx: Tx,
  { loose, admin }: Pick<Act, 'loose' | 'admin'>,
  userId: string,
  record: (subject: string, on?: 'account', subjectId?: string) => Promise<unknown>,
): Promise<void> {
  const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
  if (!user) throw DomainError.notFound('No such account');
  await tx.execute(
    sql`insert into banned_marks (kind, hash)
        select 'address', address_hash from account_addresses where user_id = ${user.id}
        union select 'device', device_hash from account_devices where user_id = ${user.id}
        union select 'card', card_fingerprint from payments
          where email = ${user.email} and card_fingerprint is not null
        on conflict do nothing`,
  );
  const imeis = await rowsOf<{ imei_hash: string; imei_last4: string }>(
    tx,
    sql`select distinct imei_hash, imei_last4 from products
        where seller_email = ${user.email} and imei_hash is not null and imei_last4 is not null`,
  );
  for (const imei of imeis)
    await insertBlockedImei(tx, {
      hash: imei.imei_hash,
      last4: imei.imei_last4,
      reason: 'Its seller was banned after review',
      blockedBy: admin.id,
    });
  // Its balance is paid out to nobody until a person has looked at it (the payout work pays only
  // active accounts): the money a scam took stays for its buyers' refunds.
  await tx.execute(
    sql`update payout_accounts set status = 'restricted', updated_at = now()
        where seller_id = ${user.id}`,
  );
  await decideReports(tx, { sellerId: user.id }, 'upheld');
  await record(user.name, 'account', user.id);
  // Its own transaction nests as a savepoint of this one.
  await deleteAccount(tx as unknown as Db, loose, user, 'banned');
}

/** The queue's decisions, newest first, a page at a time. */
export async function reviewRecords(db: Db, query: PaginationQuery): Promise<Page<ReviewRecord>> {
  const cursor = cursorOf(query);
  const rows = await rowsOf<{
    seq: number;
    target: ReviewRecord['target'];
    subject_id: string;
    subject: string;
    action: ReviewRecord['action'];
    note: string;
    admin_name: string;
    created_at: Date;
  }>(
    db,
    sql`select seq, target, subject_id, subject, action, note, admin_name, created_at
        from review_actions where seq < ${cursor ?? Number.MAX_SAFE_INTEGER}
        order by seq desc nulls last limit ${query.limit + 1}`,
  );
  return pageOf(
    rows,
    query,
    (r) => Number(r.seq),
    (r) => ({
      _id: String(r.seq),
      target: r.target,
      subjectId: r.subject_id,
      subject: r.subject,
      action: r.action,
      note: r.note,
      adminName: r.admin_name,
      at: new Date(r.created_at).toISOString(),
    }),
  );
}
