/**
 * The risk rules run (issue 34, decision 052): a listing's when it is listed, edited, relisted or
 * given new photos, in that transaction; an account's when it signs in, lists, pays or writes.
 * Each run keeps the signals that fired (risk_signals, one row a rule and subject) and forgets
 * the ones of its rules that no longer fire; a listing for sale whose uncleared signals and its
 * seller's add up to HOLD_AT is held (the products' process `hold`), in no public answer until
 * the admin clears it. A signal the admin cleared stays cleared unless it fires heavier.
 */
import { sql } from 'drizzle-orm';
import { next } from '../../shared/order-process';
import type { PhotoMatch } from '../../shared/risk';
import { type Db, rowsOf, type Tx } from '../db/client';
import { priceGuideFor } from '../repositories/price-guide';
import { setProductStatus } from '../repositories/products';
import { distinctReporters } from '../repositories/reports';
import {
  ADDRESS_CROWD_DAYS,
  ADDRESS_MAX_ACCOUNTS,
  DEVICE_MAX_ACCOUNTS,
} from '../repositories/trust';
import { offPlatform } from './off-platform';
import { findReusedPhotos } from './photo-match';
import {
  bannedLinkSignal,
  type Fired,
  HOLD_AT,
  type LinkKind,
  priceSignal,
  RULES,
  type RuleName,
  reportsSignal,
} from './rules';

/** Photos of a listing shown on another seller's listing (decision 054 says how they match). */
export type PhotoReuse = (
  db: Db | Tx,
  listing: { photos: string[]; sellerEmail: string; productId?: string },
) => Promise<PhotoMatch[]>;

/** How a listing's photos are matched against other sellers': perceptually (decision 054). */
const listingPhotoReuse: PhotoReuse = findReusedPhotos;

/** A listing's rules again after it was reported (the reports rule), in a transaction. */
export async function assessReportedListing(db: Db, productId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from products where id = ${productId} for update`);
    await assessListing(tx, productId);
  });
}

type Subject = 'listing' | 'account' | 'message';

/**
 * Keeps the signals of `evaluated` rules on a subject as this run found them: the fired ones
 * written (a cleared one stays cleared unless heavier now), the others forgotten.
 */
async function keepSignals(
  tx: Db | Tx,
  kind: Subject,
  subjectId: string,
  evaluated: readonly RuleName[],
  fired: readonly Fired[],
): Promise<void> {
  const firedRules = fired.map((f) => f.rule);
  const gone = evaluated.filter((r) => !firedRules.includes(r));
  if (gone.length > 0)
    await tx.execute(
      sql`delete from risk_signals where subject_kind = ${kind} and subject_id = ${subjectId}
          and rule = any(${`{${gone.join(',')}}`}::text[])`,
    );
  for (const f of fired)
    await tx.execute(
      sql`insert into risk_signals (subject_kind, subject_id, rule, weight, detail)
          values (${kind}, ${subjectId}, ${f.rule}, ${f.weight}, ${JSON.stringify(f.detail)}::jsonb)
          on conflict (subject_kind, subject_id, rule) do update
          set weight = excluded.weight, detail = excluded.detail,
              cleared_at = case when excluded.weight > risk_signals.weight then null
                                else risk_signals.cleared_at end`,
    );
}

type ListingRow = {
  id: string;
  status: string;
  model_name: string;
  storage: string;
  condition: string;
  resell_price_cents: number;
  photos: string[];
  seller_email: string;
  seller_id: string | null;
  seller_since: Date | null;
};

/** The account rules a listing's run also checks: a new seller's many dear phones. */
async function newSellerSignal(tx: Db | Tx, listing: ListingRow): Promise<Fired | null> {
  const rule = RULES.newSellerHighValue;
  if (!listing.seller_since) return null;
  const ageDays = Math.floor((Date.now() - new Date(listing.seller_since).getTime()) / 86_400_000);
  if (ageDays >= rule.days) return null;
  const [row] = await rowsOf<{ n: number }>(
    tx,
    sql`select count(*)::int as n from products
        where seller_email = ${listing.seller_email}
          and resell_price_cents >= ${rule.minPriceCents}
          and created_at >= ${new Date(listing.seller_since).toISOString()}::timestamptz`,
  );
  const listings = row?.n ?? 0;
  return listings >= rule.listings
    ? { rule: rule.name, weight: rule.weight, detail: { ageDays, listings } }
    : null;
}

/** The banned-link rule: the account's addresses, cards or devices among a banned account's. */
export async function bannedLinkOf(
  db: Db | Tx,
  user: { id: string; email: string },
): Promise<Fired | null> {
  const rows = await rowsOf<{ kind: LinkKind }>(
    db,
    sql`select distinct m.kind from banned_marks m
        where (m.kind = 'address' and m.hash in
                (select a.address_hash from account_addresses a where a.user_id = ${user.id}
                 -- An address many accounts a month old use (a carrier's, a campus's) ties
                 -- nobody; fresh accounts opened there do not make it look crowded.
                 and (select count(*) from account_addresses b join users u on u.id = b.user_id
                      where b.address_hash = a.address_hash
                        and u.created_at < now() - make_interval(days => ${ADDRESS_CROWD_DAYS}))
                     <= ${ADDRESS_MAX_ACCOUNTS}))
           or (m.kind = 'card' and m.hash in
                (select card_fingerprint from payments
                 where email = ${user.email} and card_fingerprint is not null))
           or (m.kind = 'device' and m.hash in
                (select d.device_hash from account_devices d where d.user_id = ${user.id}
                 -- Nor a device many accounts a month old use (a shop's, a library's computer);
                 -- fresh ones opened in one's own browser do not make it look shared.
                 and (select count(*) from account_devices e join users u on u.id = e.user_id
                      where e.device_hash = d.device_hash
                        and u.created_at < now() - make_interval(days => ${ADDRESS_CROWD_DAYS}))
                     <= ${DEVICE_MAX_ACCOUNTS}))`,
  );
  return bannedLinkSignal(rows.map((r) => r.kind));
}

const LISTING_RULES: RuleName[] = [
  RULES.priceBelowGuide.name,
  RULES.reusedPhoto.name,
  RULES.reports.name,
];
const ACCOUNT_RULES_OF_A_LISTING: RuleName[] = [
  RULES.newSellerHighValue.name,
  RULES.bannedLink.name,
];

/**
 * Runs a listing's rules (and its seller's that a listing changes) in `tx`, keeps their signals,
 * and holds the listing if it is for sale and they add up. Answers whether it is held now.
 */
export async function assessListing(
  tx: Tx,
  productId: string,
  photoReuse: PhotoReuse = listingPhotoReuse,
): Promise<{ held: boolean }> {
  const [listing] = await rowsOf<ListingRow>(
    tx,
    sql`select p.id, p.status, p.model_name, p.storage, p.condition, p.resell_price_cents,
               p.photos, p.seller_email, u.id as seller_id, u.created_at as seller_since
        from products p left join users u on u.email = p.seller_email
        where p.id = ${productId}`,
  );
  if (!listing) return { held: false };
  const guide = await priceGuideFor(tx as unknown as Db, {
    modelName: listing.model_name,
    storage: listing.storage as never,
    condition: listing.condition as never,
  });
  const matches = await photoReuse(tx, {
    photos: listing.photos,
    sellerEmail: listing.seller_email,
    productId: listing.id,
  });
  const fired = [
    priceSignal(
      listing.resell_price_cents,
      guide.median === null ? null : Math.round(guide.median * 100),
    ),
    matches.length > 0
      ? {
          rule: RULES.reusedPhoto.name,
          weight: RULES.reusedPhoto.weight,
          detail: { photos: new Set(matches.map((m) => m.photo)).size, matches },
        }
      : null,
    reportsSignal(await distinctReporters(tx, { productId })),
  ].filter((f): f is Fired => f !== null);
  await keepSignals(tx, 'listing', listing.id, LISTING_RULES, fired);
  if (listing.seller_id) {
    const user = { id: listing.seller_id, email: listing.seller_email };
    const account = [await newSellerSignal(tx, listing), await bannedLinkOf(tx, user)].filter(
      (f): f is Fired => f !== null,
    );
    await keepSignals(tx, 'account', user.id, ACCOUNT_RULES_OF_A_LISTING, account);
  }
  return { held: await holdIfDue(tx, listing) };
}

/** Holds a listing for sale whose uncleared signals and its seller's reach HOLD_AT. */
async function holdIfDue(
  tx: Tx,
  listing: { id: string; status: string; seller_id: string | null },
): Promise<boolean> {
  if (listing.status === 'held') return true;
  if (listing.status !== 'available') return false;
  const [row] = await rowsOf<{ score: number }>(
    tx,
    sql`select coalesce(sum(weight), 0)::int as score from risk_signals
        where cleared_at is null
          and ((subject_kind = 'listing' and subject_id = ${listing.id})
            or (subject_kind = 'account' and subject_id = ${listing.seller_id ?? null}::uuid))`,
  );
  if ((row?.score ?? 0) < HOLD_AT) return false;
  await setProductStatus(tx, listing.id, next('product', 'available', 'hold'));
  return true;
}

/**
 * Runs an account's own rules (the banned link; its seller reports) and holds those of its
 * listings for sale that now add up.
 */
export async function assessAccount(db: Db, user: { id: string; email: string }): Promise<void> {
  await db.transaction(async (tx) => {
    const fired = [
      await bannedLinkOf(tx, user),
      reportsSignal(await distinctReporters(tx, { sellerId: user.id })),
    ].filter((f): f is Fired => f !== null);
    await keepSignals(tx, 'account', user.id, [RULES.bannedLink.name, RULES.reports.name], fired);
    const listings = await rowsOf<{ id: string; status: string }>(
      tx,
      sql`select id, status from products where seller_email = ${user.email}
          and status = 'available' for update`,
    );
    for (const l of listings) await holdIfDue(tx, { ...l, seller_id: user.id });
  });
}

/**
 * The off-platform rule on a message just written: flags it (its receiver is warned) and adds
 * to its sender's signal. Answers whether it asked to go outside.
 */
export async function assessMessage(
  tx: Tx,
  message: { id: string; body: string; senderId: string },
): Promise<boolean> {
  const found = offPlatform(message.body);
  if (found.length === 0) return false;
  await tx.execute(sql`update messages set off_platform = true where id = ${message.id}`);
  const [row] = await rowsOf<{ n: number }>(
    tx,
    sql`select count(*)::int as n from messages
        where sender_id = ${message.senderId} and off_platform`,
  );
  const messages = row?.n ?? 1;
  const rule = RULES.offPlatform;
  const [before] = await rowsOf<{ detail: { words?: string[] } }>(
    tx,
    sql`select detail from risk_signals where subject_kind = 'account'
        and subject_id = ${message.senderId} and rule = ${rule.name}`,
  );
  const words = [
    ...new Set([...(before?.detail.words ?? []), ...found.map((f) => f.words.toLowerCase())]),
  ].slice(0, 8);
  await keepSignals(
    tx,
    'account',
    message.senderId,
    [],
    [
      {
        rule: rule.name,
        weight: Math.min(rule.max, rule.weight + rule.perMessage * (messages - 1)),
        detail: { messages, words },
      },
    ],
  );
  return true;
}
