/**
 * Reports of a listing or a seller (issue 34, decision 053): any signed-in person reports a
 * listing the public can see, or a seller, once each, with a reason and a note; they see their
 * own reports and are told, in one plain sentence, when the admin decides them. Nobody else's
 * report, and nobody's way to be reached, is in any answer here.
 */
import { and, count, desc, eq, gt, type SQL, sql } from 'drizzle-orm';
import { withoutContacts } from '../../shared/messages';
import type { MyReport, ReportInput } from '../../shared/risk';
import { type Db, rowsOf, type Tx } from '../db/client';
import { bannedEmails, products, reports, users } from '../db/schema';
import { DomainError } from '../domain/domain-error';
import { type Notice, notify } from '../notify/notify';
import type { Caller } from '../plugins/auth';
import { phoneName } from './money';

/** Reports one person may make in a day: enough for anyone honest, not a flood of the queue. */
export const REPORTS_PER_DAY = 20;
/** The reports `myReports` answers, newest first. */
const MY_REPORTS_SHOWN = 100;
/** Where a reporter is sent when told of a decision. */
export const MY_REPORTS_PATH = '/dashboard/reports';

export const ALREADY_REPORTED_LISTING = 'You have already reported this listing.';
export const ALREADY_REPORTED_SELLER = 'You have already reported this seller.';
export const OWN_LISTING = 'You cannot report your own listing.';
export const OWN_ACCOUNT = 'You cannot report your own account.';
export const TOO_MANY_REPORTS = `You can send at most ${REPORTS_PER_DAY} reports a day. Try again tomorrow.`;

/**
 * Listings a person may have seen: for sale (booked or not), sold, or held since they saw it
 * (their report adds to what the admin reads; the answer is the same as for a listing for sale,
 * so it tells nobody it is held). Never withdrawn.
 */
const REPORTABLE_STATUSES = ['available', 'sold', 'held'] as const;

type Report = typeof reports.$inferInsert;

/**
 * Writes the report, once per person and subject, within the person's daily allowance. The
 * reporter's row is locked, so two reports at once cannot both be the 21st; a second report of
 * the same subject (even sent twice at once) meets the unique index and changes nothing.
 */
async function fileReport(
  db: Db,
  caller: Caller,
  report: Omit<Report, 'reporterId'>,
  already: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, caller.id)).for('update');
    const [today] = await tx
      .select({ n: count() })
      .from(reports)
      .where(
        and(
          eq(reports.reporterId, caller.id),
          gt(reports.createdAt, sql`now() - interval '1 day'`),
        ),
      );
    const [dup] = await tx
      .select({ id: reports.id })
      .from(reports)
      .where(
        and(
          eq(reports.reporterId, caller.id),
          eq(reports.kind, report.kind),
          report.kind === 'listing'
            ? eq(reports.productId, report.productId as string)
            : eq(reports.sellerId, report.sellerId as string),
        ),
      )
      .limit(1);
    // Said before the allowance: the person learns the report is there, not to wait a day.
    if (dup) throw DomainError.conflict(already);
    if ((today?.n ?? 0) >= REPORTS_PER_DAY) throw DomainError.tooMany(TOO_MANY_REPORTS, 60 * 60);
    const written = await tx
      .insert(reports)
      .values({ ...report, reporterId: caller.id })
      .onConflictDoNothing()
      .returning({ id: reports.id });
    if (written.length === 0) throw DomainError.conflict(already);
  });
}

/** Whether the address was banned (its account removed or about to be). */
async function banned(db: Db, email: string): Promise<boolean> {
  const [row] = await db
    .select({ email: bannedEmails.email })
    .from(bannedEmails)
    .where(eq(bannedEmails.email, email.toLowerCase()))
    .limit(1);
  return row !== undefined;
}

/** The caller reports a listing the public can see; one they cannot is a 404, as its page is. */
export async function reportListing(
  db: Db,
  caller: Caller,
  productId: string,
  input: ReportInput & { note: string },
): Promise<void> {
  const [row] = await db
    .select({
      modelName: products.modelName,
      storage: products.storage,
      condition: products.condition,
      status: products.status,
      sellerId: users.id,
      sellerEmail: users.email,
    })
    .from(products)
    .innerJoin(users, eq(users.email, products.sellerEmail))
    .where(eq(products.id, productId))
    .limit(1);
  if (
    !row ||
    !(REPORTABLE_STATUSES as readonly string[]).includes(row.status) ||
    (await banned(db, row.sellerEmail))
  )
    throw DomainError.notFound('No such phone');
  if (row.sellerId === caller.id) throw DomainError.badRequest(OWN_LISTING);
  await fileReport(
    db,
    caller,
    {
      kind: 'listing',
      productId,
      sellerId: row.sellerId,
      subjectName: phoneName(row),
      reason: input.reason,
      note: input.note,
    },
    ALREADY_REPORTED_LISTING,
  );
}

/** The caller reports a seller whose public page exists; any other id is a 404, as that page. */
export async function reportSeller(
  db: Db,
  caller: Caller,
  sellerId: string,
  input: ReportInput & { note: string },
): Promise<void> {
  const [seller] = await db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(and(eq(users.id, sellerId), eq(users.type, 'seller')))
    .limit(1);
  if (!seller || (await banned(db, seller.email))) throw DomainError.notFound('No such seller');
  if (seller.id === caller.id) throw DomainError.badRequest(OWN_ACCOUNT);
  await fileReport(
    db,
    caller,
    {
      kind: 'seller',
      sellerId,
      // The name as the seller's page shows it; the notice masks contacts in it again.
      subjectName: seller.name,
      reason: input.reason,
      note: input.note,
    },
    ALREADY_REPORTED_SELLER,
  );
}

/** The caller's own reports, newest first: what they reported, why, and what became of it. */
export async function myReports(db: Db, reporterId: string): Promise<MyReport[]> {
  const rows = await db
    .select({
      id: reports.id,
      kind: reports.kind,
      productId: reports.productId,
      sellerId: reports.sellerId,
      subjectName: reports.subjectName,
      reason: reports.reason,
      note: reports.note,
      status: reports.status,
      createdAt: reports.createdAt,
      decidedAt: reports.decidedAt,
    })
    .from(reports)
    .where(eq(reports.reporterId, reporterId))
    .orderBy(desc(reports.seq))
    .limit(MY_REPORTS_SHOWN);
  return rows.map((r) => ({
    _id: r.id,
    target: {
      kind: r.kind,
      id: r.kind === 'listing' ? r.productId : r.sellerId,
      // As anyone may see a seller's or a phone's name: through the contact mask.
      name: withoutContacts(r.subjectName),
    },
    reason: r.reason,
    note: r.note,
    status: r.status,
    createdAt: r.createdAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
  }));
}

/** What a decided report is called in its reporter's notice. */
const subjectOf = (r: { kind: 'listing' | 'seller'; subjectName: string }) =>
  r.kind === 'seller' ? `the seller ${r.subjectName}` : r.subjectName;

/** 'a', 'a and b', 'a, b and c'. */
const listed = (names: string[]) =>
  names.length <= 1
    ? (names[0] ?? '')
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;

/**
 * What the reporter is told: what was decided, and nothing of who else reported, what was found
 * or what was done, which would teach a scammer where the line is.
 */
export function decisionSentence(
  outcome: 'upheld' | 'dismissed',
  decided: { kind: 'listing' | 'seller'; subjectName: string }[],
): string {
  const what = `your ${decided.length > 1 ? 'reports' : 'report'} of ${listed(
    [...new Set(decided.map(subjectOf))].slice(0, 3),
  )}${decided.length > 3 ? ' and others' : ''}`;
  return outcome === 'upheld'
    ? `Thanks: we looked at ${what} and took action.`
    : `We looked at ${what} and found nothing against our rules.`;
}

/**
 * Decides every open report matched (`sellerId`: the seller's own reports and those of any of
 * their listings; several keys: all of them must match) and tells each reporter once, in the
 * caller's transaction. A report already decided keeps its decision. Answers how many it decided.
 */
export async function decideReports(
  tx: Db | Tx,
  where: { productId?: string; sellerId?: string; reportId?: string },
  outcome: 'upheld' | 'dismissed',
): Promise<number> {
  const matched: SQL[] = [];
  if (where.productId !== undefined) matched.push(eq(reports.productId, where.productId));
  if (where.sellerId !== undefined) matched.push(eq(reports.sellerId, where.sellerId));
  if (where.reportId !== undefined) matched.push(eq(reports.id, where.reportId));
  // Nothing named decides nothing, never every report.
  if (matched.length === 0) return 0;
  const decided = await tx
    .update(reports)
    .set({ status: outcome, decidedAt: sql`now()` })
    .where(and(eq(reports.status, 'open'), ...matched))
    .returning({
      reporterId: reports.reporterId,
      kind: reports.kind,
      subjectName: reports.subjectName,
      seq: reports.seq,
    });
  const byReporter = new Map<string, typeof decided>();
  for (const r of decided.sort((a, b) => a.seq - b.seq))
    byReporter.set(r.reporterId, [...(byReporter.get(r.reporterId) ?? []), r]);
  const notices: Notice[] = [...byReporter].map(([userId, theirs]) => ({
    userId,
    kind: 'report-decided',
    text: decisionSentence(outcome, theirs),
    link: MY_REPORTS_PATH,
  }));
  await notify(tx, notices);
  return decided.length;
}

/** How many different people have an open report of the listing or the seller (a risk rule's). */
export async function distinctReporters(
  db: Db | Tx,
  of: { productId: string } | { sellerId: string },
): Promise<number> {
  // People, not accounts: reporters seen from one client address count once (each reporter is
  // known by the first of their addresses, or by their account when none is known).
  const [row] = await rowsOf<{ n: number }>(
    db,
    sql`select count(distinct coalesce(
               (select min(a.address_hash) from account_addresses a where a.user_id = r.reporter_id),
               r.reporter_id::text))::int as n
        from reports r
        where r.status = 'open'
          and ${'productId' in of ? sql`r.product_id = ${of.productId}` : sql`r.seller_id = ${of.sellerId}`}`,
  );
  return row?.n ?? 0;
}
