/**
 * Reports of a listing or a seller (issue 34, decision 053), on PGlite and on PostgreSQL: who may
 * report what (a listing the public can see, a seller with a public page, never their own), once
 * per person and subject, within a daily allowance; bad input refused with nothing stored; each
 * person's own reports and nobody else's; and the decision, told once to each reporter by bell
 * and mail in a sentence that names no one and nothing a scammer could use.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxMails, type products, reports, users } from '../../src/server/db/schema';
import { banEmail } from '../../src/server/repositories/bans';
import {
  ALREADY_REPORTED_LISTING,
  ALREADY_REPORTED_SELLER,
  decideReports,
  distinctReporters,
  OWN_ACCOUNT,
  OWN_LISTING,
  REPORTS_PER_DAY,
  TOO_MANY_REPORTS,
} from '../../src/server/repositories/reports';
import { REPORT_NOTE_MAX } from '../../src/shared/risk-names';
import { type Account, createAccount, createAdmin } from '../helpers/accounts';
import { createProduct, uniqueWord } from '../helpers/factories';
import { fingerprint } from '../helpers/fingerprint';
import { buildTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
let seller: Account;
let sellerRow: typeof users.$inferSelect;
let admin: Account;

beforeAll(async () => {
  t = await buildTestApp();
  seller = await createAccount(t.app, 'seller');
  admin = await createAdmin(t.app);
  sellerRow = (
    await t.database.db.select().from(users).where(eq(users.id, seller.id))
  )[0] as typeof users.$inferSelect;
});
afterAll(() => t?.close());

const call = (who: Account | null, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    ...(who ? { headers: who.bearer } : {}),
    ...(payload ? { payload } : {}),
  });

const reportPhone = (who: Account | null, id: string, body: object = { reason: 'scam' }) =>
  call(who, 'POST', `/api/products/${id}/reports`, body);
const reportSellerOf = (who: Account | null, id: string, body: object = { reason: 'scam' }) =>
  call(who, 'POST', `/api/sellers/${id}/reports`, body);
const mine = async (who: Account) => {
  const res = await call(who, 'GET', '/api/reports');
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    _id: string;
    target: { kind: string; id: string | null; name: string };
    reason: string;
    note: string;
    status: string;
    createdAt: string;
    decidedAt: string | null;
  }[];
};

const phone = (overrides: Partial<typeof products.$inferInsert> = {}, of = sellerRow) =>
  createProduct(t.database.db, of, { modelName: `Pixel ${uniqueWord()}`, ...overrides });

const reportsOf = (productId: string) =>
  t.database.db.select().from(reports).where(eq(reports.productId, productId));

const noticesOf = async (who: Account) => {
  const res = await call(who, 'GET', '/api/notifications?limit=100');
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { kind: string; text: string; link: string }[]).filter(
    (n) => n.kind === 'report-decided',
  );
};
const mailsTo = (who: Account) =>
  t.database.db
    .select()
    .from(outboxMails)
    .where(and(eq(outboxMails.toAddress, who.email), eq(outboxMails.kind, 'report-decided')));

/** The admin's review queue (built apart) decides in its own transaction; so do these tests. */
const decide = (
  where: Parameters<typeof decideReports>[1],
  outcome: Parameters<typeof decideReports>[2],
) => t.database.db.transaction((tx) => decideReports(tx, where, outcome));

describe('reporting a listing', () => {
  it('stores a report of a phone for sale, named as notices name phones, and shows it Open to its reporter', async () => {
    const buyer = await createAccount(t.app, 'user');
    const p = await phone({ storage: '1 GTB', condition: 'Fair' });
    const res = await reportPhone(buyer, p.id, { reason: 'stolen', note: '  Same photos as X  ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ acknowledged: true });

    const [row] = await reportsOf(p.id);
    expect(row).toMatchObject({
      reporterId: buyer.id,
      sellerId: seller.id,
      kind: 'listing',
      reason: 'stolen',
      note: 'Same photos as X',
      status: 'open',
      subjectName: `${p.modelName} (1 TB, Fair)`,
    });
    const [shown] = await mine(buyer);
    expect(shown).toEqual({
      _id: row?.id,
      target: { kind: 'listing', id: p.id, name: `${p.modelName} (1 TB, Fair)` },
      reason: 'stolen',
      note: 'Same photos as X',
      status: 'open',
      createdAt: expect.any(String),
      decidedAt: null,
    });
  });

  it('takes reports of booked and sold phones, from buyers, other sellers and the admin', async () => {
    const other = await createAccount(t.app, 'seller');
    const buyer = await createAccount(t.app, 'user');
    const booked = await phone();
    expect(
      (
        await call(buyer, 'POST', '/api/order', {
          productId: booked.id,
          location: 'Cafe',
          number: '+1 555 0100',
        })
      ).statusCode,
    ).toBe(200);
    const sold = await phone({ status: 'sold' });
    for (const [who, id] of [
      [buyer, booked.id],
      [other, sold.id],
      [admin, sold.id],
    ] as const)
      expect((await reportPhone(who, id)).statusCode).toBe(200);
    expect(await distinctReporters(t.database.db, { productId: sold.id })).toBe(2);
  });

  it('answers 404 for a withdrawn, deleted or unknown listing, as its page does, and stores nothing', async () => {
    const buyer = await createAccount(t.app, 'user');
    const withdrawn = await phone({ status: 'withdrawn' });
    const before = await fingerprint(t.database.db);
    for (const id of [withdrawn.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await reportPhone(buyer, id);
      expect(res.statusCode, id).toBe(404);
      expect(res.json().message).toBe('No such phone');
    }
    expect((await reportPhone(buyer, 'not-an-id')).statusCode).toBe(400);
    expect(await fingerprint(t.database.db)).toEqual(before);
  });

  it('takes a report of a listing held since it was seen, answering as for one for sale', async () => {
    const buyer = await createAccount(t.app, 'user');
    const held = await phone({ status: 'held' });
    expect((await reportPhone(buyer, held.id)).statusCode).toBe(200);
  });

  it("refuses a seller's report of their own listing with a clear message", async () => {
    const p = await phone();
    const res = await reportPhone(seller, p.id);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(OWN_LISTING);
    expect(await reportsOf(p.id)).toEqual([]);
  });

  it('takes one report per person and listing: a second is 409 and changes nothing', async () => {
    const buyer = await createAccount(t.app, 'user');
    const p = await phone();
    expect((await reportPhone(buyer, p.id, { reason: 'scam', note: 'first' })).statusCode).toBe(
      200,
    );
    const before = await fingerprint(t.database.db);
    const again = await reportPhone(buyer, p.id, { reason: 'other', note: 'second' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(ALREADY_REPORTED_LISTING);
    expect(await fingerprint(t.database.db)).toEqual(before);
    // Sent twice at once: still one.
    const other = await createAccount(t.app, 'user');
    const twice = await Promise.all([reportPhone(other, p.id), reportPhone(other, p.id)]);
    expect(twice.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await reportsOf(p.id)).toHaveLength(2);
  });

  it('refuses a reason not in the list, a note too long and a missing body, naming the field, storing nothing', async () => {
    const buyer = await createAccount(t.app, 'user');
    const p = await phone();
    const cases: [object | undefined, RegExp][] = [
      [{ reason: 'boring' }, /reason must be one of scam, stolen, wrong-details, offensive, other/],
      [{ reason: 'scam', note: 'x'.repeat(REPORT_NOTE_MAX + 1) }, /note is too long/],
      [{ note: 'no reason' }, /reason/],
      [{ reason: 'scam', note: 42 }, /note/],
      [undefined, /body/i],
    ];
    for (const [body, message] of cases) {
      const res = await call(buyer, 'POST', `/api/products/${p.id}/reports`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect(await reportsOf(p.id)).toEqual([]);
    // The longest note allowed is taken.
    expect(
      (await reportPhone(buyer, p.id, { reason: 'other', note: 'y'.repeat(REPORT_NOTE_MAX) }))
        .statusCode,
    ).toBe(200);
  });

  it('asks a stranger to sign in (401) and takes nothing from them', async () => {
    const p = await phone();
    expect((await reportPhone(null, p.id)).statusCode).toBe(401);
    expect((await reportSellerOf(null, seller.id)).statusCode).toBe(401);
    expect((await call(null, 'GET', '/api/reports')).statusCode).toBe(401);
    expect(await reportsOf(p.id)).toEqual([]);
  });
});

describe('reporting a seller', () => {
  it("stores a report of a seller with a public page, once, and refuses one's own account", async () => {
    const buyer = await createAccount(t.app, 'user');
    const res = await reportSellerOf(buyer, seller.id, { reason: 'offensive', note: 'Rude' });
    expect(res.statusCode, res.body).toBe(200);
    const [shown] = await mine(buyer);
    expect(shown).toMatchObject({
      target: { kind: 'seller', id: seller.id, name: sellerRow.name },
      reason: 'offensive',
      note: 'Rude',
      status: 'open',
    });
    const again = await reportSellerOf(buyer, seller.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(ALREADY_REPORTED_SELLER);
    const own = await reportSellerOf(seller, seller.id);
    expect(own.statusCode).toBe(400);
    expect(own.json().message).toBe(OWN_ACCOUNT);
    // A report of the seller and one of their listing are two subjects: both taken.
    expect((await reportPhone(buyer, (await phone()).id)).statusCode).toBe(200);
  });

  it("answers 404 for a buyer's account, an unknown id, a deleted seller and a banned one", async () => {
    const buyer = await createAccount(t.app, 'user');
    const other = await createAccount(t.app, 'user');
    const deleted = await createAccount(t.app, 'seller');
    const removal = await t.app.inject({
      method: 'DELETE',
      url: `/api/users?id=${deleted.id}`,
      headers: admin.bearer,
    });
    expect(removal.statusCode).toBe(200);
    const bannedSeller = await createAccount(t.app, 'seller');
    const bannedPhone = await phone(
      {},
      (
        await t.database.db.select().from(users).where(eq(users.id, bannedSeller.id))
      )[0] as typeof users.$inferSelect,
    );
    await banEmail(t.database.db, bannedSeller.email, 'banned');
    const before = await fingerprint(t.database.db);
    for (const id of [
      other.id,
      admin.id,
      deleted.id,
      bannedSeller.id,
      '00000000-0000-4000-8000-000000000000',
    ]) {
      const res = await reportSellerOf(buyer, id);
      expect(res.statusCode, id).toBe(404);
      expect(res.json().message).toBe('No such seller');
    }
    expect((await reportPhone(buyer, bannedPhone.id)).statusCode).toBe(404);
    expect(await fingerprint(t.database.db)).toEqual(before);
  });
});

describe('the daily allowance', () => {
  it(`takes at most ${REPORTS_PER_DAY} reports a day from one person, then 429 with a reason`, async () => {
    const buyer = await createAccount(t.app, 'user');
    const earlier = await Promise.all(Array.from({ length: REPORTS_PER_DAY }, () => phone()));
    await t.database.db.insert(reports).values(
      earlier.map((p) => ({
        reporterId: buyer.id,
        productId: p.id,
        sellerId: seller.id,
        subjectName: p.modelName,
        kind: 'listing' as const,
        reason: 'scam' as const,
      })),
    );
    const next = await phone();
    const res = await reportPhone(buyer, next.id);
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toBe(TOO_MANY_REPORTS);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect((await reportSellerOf(buyer, seller.id)).statusCode).toBe(429);
    expect(await reportsOf(next.id)).toEqual([]);
    // A day later the allowance is whole again; another person's is their own all along.
    await t.database.db
      .update(reports)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(reports.reporterId, buyer.id));
    expect((await reportPhone(buyer, next.id)).statusCode).toBe(200);
    expect((await reportPhone(await createAccount(t.app, 'user'), next.id)).statusCode).toBe(200);
  });
});

describe('my reports', () => {
  it("answers the caller's own reports only, newest first, at most 100, with no one's contacts", async () => {
    const buyer = await createAccount(t.app, 'user');
    const other = await createAccount(t.app, 'user');
    const first = await phone();
    const second = await phone();
    expect((await reportPhone(buyer, first.id)).statusCode).toBe(200);
    expect((await reportSellerOf(buyer, seller.id)).statusCode).toBe(200);
    expect((await reportPhone(buyer, second.id, { reason: 'wrong-details' })).statusCode).toBe(200);
    expect(
      (await reportPhone(other, first.id, { reason: 'scam', note: 'the other one' })).statusCode,
    ).toBe(200);
    const res = await call(buyer, 'GET', '/api/reports');
    const shown = res.json() as { target: { id: string }; note: string }[];
    expect(shown.map((r) => r.target.id)).toEqual([second.id, seller.id, first.id]);
    expect(res.body).not.toContain('the other one');
    for (const email of [seller.email, other.email, buyer.email])
      expect(res.body).not.toContain(email);
    expect(await mine(await createAccount(t.app, 'user'))).toEqual([]);

    // Old reports of listings deleted since (no product: the once-only index does not meet them).
    await t.database.db.insert(reports).values(
      Array.from({ length: 120 }, (_, i) => ({
        reporterId: other.id,
        productId: null,
        sellerId: seller.id,
        subjectName: `Old ${i}`,
        kind: 'listing' as const,
        reason: 'other' as const,
        createdAt: sql`now() - interval '30 days'`,
      })),
    );
    expect(await mine(other)).toHaveLength(100);
  });
});

describe('deciding reports', () => {
  it('upholds every open report of a listing and tells each reporter once, by bell and mail', async () => {
    const [a, b] = [await createAccount(t.app, 'user'), await createAccount(t.app, 'user')];
    const p = await phone({ storage: '128 GB', condition: 'Good' });
    const untouched = await phone();
    expect((await reportPhone(a, p.id)).statusCode).toBe(200);
    expect((await reportPhone(b, p.id, { reason: 'stolen' })).statusCode).toBe(200);
    expect((await reportPhone(a, untouched.id)).statusCode).toBe(200);
    expect(await distinctReporters(t.database.db, { productId: p.id })).toBe(2);

    expect(await decide({ productId: p.id }, 'upheld')).toBe(2);
    const text = `Thanks: we looked at your report of ${p.modelName} (128 GB, Good) and took action.`;
    for (const who of [a, b]) {
      expect(await noticesOf(who)).toEqual([
        expect.objectContaining({ kind: 'report-decided', text, link: '/dashboard/reports' }),
      ]);
      const mails = await mailsTo(who);
      expect(mails).toHaveLength(1);
      expect(mails[0]?.subject).toBe('We looked at your report');
      expect(mails[0]?.textBody).toContain(text);
      // Nobody else's report shows: not the other reporter, not the seller's address.
      for (const body of [mails[0]?.textBody ?? '', JSON.stringify(await noticesOf(who))]) {
        expect(body).not.toContain(who === a ? b.email : a.email);
        expect(body).not.toContain(seller.email);
      }
    }
    const shown = (await mine(a)).find((r) => r.target.id === p.id);
    expect(shown).toMatchObject({ status: 'upheld', decidedAt: expect.any(String) });
    expect((await mine(a)).find((r) => r.target.id === untouched.id)?.status).toBe('open');
    expect(await distinctReporters(t.database.db, { productId: p.id })).toBe(0);

    // Decided once: deciding again changes nothing and tells no one again.
    expect(await decide({ productId: p.id }, 'dismissed')).toBe(0);
    expect(await noticesOf(a)).toHaveLength(1);
    expect((await mine(b))[0]?.status).toBe('upheld');
  });

  it("decides a seller's own reports and those of their listings, one notice per reporter", async () => {
    const badSeller = await createAccount(t.app, 'seller');
    const badRow = (
      await t.database.db.select().from(users).where(eq(users.id, badSeller.id))
    )[0] as typeof users.$inferSelect;
    const [p1, p2] = [await phone({}, badRow), await phone({}, badRow)];
    const [a, b] = [await createAccount(t.app, 'user'), await createAccount(t.app, 'user')];
    // One after the other: the notice names a reporter's reports in the order they were made.
    for (const send of [
      () => reportSellerOf(a, badSeller.id),
      () => reportPhone(a, p1.id),
      () => reportPhone(b, p2.id),
    ]) {
      const res = await send();
      expect(res.statusCode, res.body).toBe(200);
    }
    const elsewhere = await phone();
    expect((await reportPhone(b, elsewhere.id)).statusCode).toBe(200);
    expect(await distinctReporters(t.database.db, { sellerId: badSeller.id })).toBe(2);

    expect(await decide({ sellerId: badSeller.id }, 'dismissed')).toBe(3);
    const [toA] = await noticesOf(a);
    expect(await noticesOf(a)).toHaveLength(1);
    expect(toA?.text).toBe(
      `We looked at your reports of the seller ${badRow.name} and ${p1.modelName} (128 GB, Good) and found nothing against our rules.`,
    );
    expect((await noticesOf(b))[0]?.text).toBe(
      `We looked at your report of ${p2.modelName} (128 GB, Good) and found nothing against our rules.`,
    );
    expect((await mine(b)).find((r) => r.target.id === elsewhere.id)?.status).toBe('open');
    expect((await mine(a)).every((r) => r.status === 'dismissed')).toBe(true);
  });

  it('decides one report by its id, and nothing when nothing is named', async () => {
    const [a, b] = [await createAccount(t.app, 'user'), await createAccount(t.app, 'user')];
    const p = await phone();
    expect((await reportPhone(a, p.id)).statusCode).toBe(200);
    expect((await reportPhone(b, p.id)).statusCode).toBe(200);
    expect(await decide({}, 'upheld')).toBe(0);
    const [aReport] = await mine(a);
    expect(await decide({ reportId: aReport?._id as string }, 'dismissed')).toBe(1);
    expect((await mine(a))[0]?.status).toBe('dismissed');
    expect((await mine(b))[0]?.status).toBe('open');
    expect(await noticesOf(b)).toEqual([]);
  });

  it('writes nothing when the transaction that decides rolls back', async () => {
    const a = await createAccount(t.app, 'user');
    const p = await phone();
    expect((await reportPhone(a, p.id)).statusCode).toBe(200);
    await expect(
      t.database.db.transaction(async (tx) => {
        await decideReports(tx, { productId: p.id }, 'upheld');
        throw new Error('the action failed');
      }),
    ).rejects.toThrow('the action failed');
    expect((await mine(a))[0]?.status).toBe('open');
    expect(await noticesOf(a)).toEqual([]);
    expect(await mailsTo(a)).toEqual([]);
  });
});
