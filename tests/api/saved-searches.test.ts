/**
 * Saved searches and their alerts (issue 33, decision 049), on PGlite and on PostgreSQL: one
 * alert per person per matching phone (bell and mail through a real SMTP server), none for a
 * phone that does not match, one more for a price drop (at most one a day), none for a paused
 * search or a deleted account, daily digests that group the day's phones, two alert workers
 * that tell once, and the count of waiting buyers a seller sees.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/server/db/client';
import { type products, savedSearchAlerts, users } from '../../src/server/db/schema';
import {
  MAX_ATTEMPTS,
  runDigests,
  SavedSearchAlerts,
} from '../../src/server/saved-searches/alerts';
import { SavedSearchIndex } from '../../src/server/saved-searches/saved-search-index';
import { SAVED_SEARCHES_MAX } from '../../src/shared/constants';
import { type Account, createAccount, createAdmin } from '../helpers/accounts';
import { createProduct, editOf, uniqueWord } from '../helpers/factories';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server';
import { buildTestApp, type TestApp } from '../helpers/test-app';

let smtp: TestSmtpServer;
let t: TestApp;
let seller: Account;
let sellerRow: typeof users.$inferSelect;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await buildTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Phone Market <market@test.example>' });
  seller = await createAccount(t.app, 'seller');
  sellerRow = (
    await t.database.db.select().from(users).where(eq(users.email, seller.email))
  )[0] as typeof users.$inferSelect;
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const call = (who: Account | null, method: string, url: string, payload?: object) =>
  t.app.inject({
    method: method as 'GET',
    url,
    ...(who ? { headers: who.bearer } : {}),
    ...(payload ? { payload } : {}),
  });

async function save(who: Account, search: string, frequency = 'instant', name = 'My search') {
  const res = await call(who, 'POST', '/api/saved-searches', { name, search, frequency });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().insertedId as string;
}

/** A phone of the seller's, for sale; its model carries `word` so only its test's searches match. */
const list = (word: string, overrides: Partial<typeof products.$inferInsert> = {}) =>
  createProduct(t.database.db, sellerRow, { modelName: `Pixel ${word}`, ...overrides });

/** The alert work's round, as the timed work runs it, and the mail it wrote handed over. */
async function alertRound() {
  await t.app.savedSearchAlerts.round();
  await t.app.outbox.deliver();
  await t.app.outbox.idle();
}

const alertsOf = async (who: Account) => {
  const res = await call(who, 'GET', '/api/notifications?limit=100');
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { kind: string; text: string; link: string }[]).filter((n) =>
    n.kind.startsWith('saved-search'),
  );
};

const mailsTo = (who: Account) => smtp.received.filter((m) => m.envelopeTo.includes(who.email));

describe('a saved search', () => {
  it('tells its owner once of each matching phone, by bell and mail, and of nothing else', async () => {
    const buyer = await createAccount(t.app, 'user');
    const word = uniqueWord();
    await save(buyer, `q=pixel+${word}&storage=128+GB&maxPrice=500`, 'instant', 'Cheap Pixel');
    const match = await list(word, { storage: '128 GB', resellPriceCents: 45_000 });
    await list(word, { storage: '256 GB', resellPriceCents: 45_000 });
    await list(word, { storage: '128 GB', resellPriceCents: 55_000 });
    await list(uniqueWord(), { storage: '128 GB', resellPriceCents: 45_000 });
    await alertRound();
    await alertRound();
    const told = await alertsOf(buyer);
    expect(told).toEqual([
      {
        kind: 'saved-search',
        text: `Pixel ${word} (128 GB, Good) for $450 matches your saved search “Cheap Pixel”.`,
        link: `/product/${match.id}`,
        _id: expect.any(String),
        read: false,
        createdAt: expect.any(String),
      },
    ]);
    expect(mailsTo(buyer).filter((m) => m.subject?.includes('just listed'))).toHaveLength(1);

    // The page counts it as matching now and as new since the last look; opening it clears that.
    const [shown] = (await call(buyer, 'GET', '/api/saved-searches')).json();
    expect(shown).toMatchObject({
      name: 'Cheap Pixel',
      matching: 1,
      newSinceSeen: 1,
      paused: false,
    });
    expect(shown.search).toBe(`q=pixel+${word}&storage=128+GB&maxPrice=500`);
    expect((await call(buyer, 'POST', `/api/saved-searches/${shown._id}/seen`)).statusCode).toBe(
      200,
    );
    expect((await call(buyer, 'GET', '/api/saved-searches')).json()[0].newSinceSeen).toBe(0);
  });

  it('tells once more when the phone drops into its range, and at most one drop a day', async () => {
    const buyer = await createAccount(t.app, 'user');
    const word = uniqueWord();
    await save(buyer, `q=${word}&maxPrice=400`);
    const phone = await list(word, { resellPriceCents: 45_000 });
    await alertRound();
    expect(await alertsOf(buyer)).toEqual([]);
    const edit = (dollars: number) =>
      call(seller, 'PUT', `/api/products/${phone.id}`, editOf(phone, dollars));
    expect((await edit(390)).statusCode).toBe(200);
    await alertRound();
    expect((await alertsOf(buyer)).map((n) => n.text)).toEqual([
      `Pixel ${word} (128 GB, Good) for $390 matches your saved search “My search”.`,
    ]);
    // Cheaper again the same day: the bell said so already today.
    expect((await edit(380)).statusCode).toBe(200);
    await alertRound();
    expect(await alertsOf(buyer)).toHaveLength(1);
    // A day later, one more drop is told as a drop.
    await t.database.db
      .update(savedSearchAlerts)
      .set({ alertedAt: new Date(Date.now() - 2 * 86_400_000) })
      .where(eq(savedSearchAlerts.productId, phone.id));
    expect((await edit(370)).statusCode).toBe(200);
    await alertRound();
    expect((await alertsOf(buyer)).map((n) => n.text)[0]).toBe(
      `Pixel ${word} (128 GB, Good) matching your saved search “My search” is now $370.`,
    );
    expect(await alertsOf(buyer)).toHaveLength(2);
  });

  it('tells a person once of a phone two of their searches match', async () => {
    const buyer = await createAccount(t.app, 'user');
    const word = uniqueWord();
    await save(buyer, `q=${word}`, 'instant', 'First');
    await save(buyer, `q=pixel+${word}&brand=01`, 'instant', 'Second');
    await list(word);
    await alertRound();
    expect((await alertsOf(buyer)).map((n) => n.text)).toEqual([
      expect.stringContaining('matches your saved search “First”'),
    ]);
  });

  it('tells nothing while paused, and nothing to an account deleted meanwhile', async () => {
    const paused = await createAccount(t.app, 'user');
    const deleted = await createAccount(t.app, 'user');
    const word = uniqueWord();
    const id = await save(paused, `q=${word}`);
    await save(deleted, `q=${word}`);
    const res = await call(paused, 'PUT', `/api/saved-searches/${id}`, { paused: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().paused).toBe(true);
    const admin = await createAdmin(t.app);
    const [row] = await t.database.db.select().from(users).where(eq(users.email, deleted.email));
    expect((await call(admin, 'DELETE', `/api/users?id=${row?.id}`)).statusCode).toBe(200);
    await list(word);
    await alertRound();
    expect(await alertsOf(paused)).toEqual([]);
    const left = await t.database.db
      .select()
      .from(savedSearchAlerts)
      .where(eq(savedSearchAlerts.userId, row?.id as string));
    expect(left).toEqual([]);
  });
});

describe('a daily digest', () => {
  it('groups the day’s phones in one notification and one mail, once a day', async () => {
    const buyer = await createAccount(t.app, 'user');
    const word = uniqueWord();
    await save(buyer, `q=${word}`, 'daily', 'Daily');
    await list(word, { resellPriceCents: 30_000 });
    await list(word, { resellPriceCents: 20_000 });
    await alertRound();
    // Nothing at once: the phones wait for the digest.
    expect(await alertsOf(buyer)).toEqual([]);
    const later = new Date(Date.now() + 25 * 3_600_000);
    expect(await runDigests(t.database.db, 24, later)).toBeGreaterThanOrEqual(1);
    await t.app.outbox.deliver(later);
    await t.app.outbox.idle();
    const told = await alertsOf(buyer);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({
      kind: 'saved-search-digest',
      link: '/dashboard/saved-searches',
    });
    expect(told[0]?.text).toBe(
      `2 phones match your saved searches today: Pixel ${word} (128 GB, Good) for $200; Pixel ${word} (128 GB, Good) for $300.`,
    );
    const digests = mailsTo(buyer).filter(
      (m) => m.subject === 'Today’s phones for your saved searches',
    );
    expect(digests).toHaveLength(1);
    expect(digests[0]?.text).toContain(`Pixel ${word} (128 GB, Good) for $200`);
    // The same day again: no second digest, even with a new phone waiting.
    await list(word, { resellPriceCents: 25_000 });
    await alertRound();
    await runDigests(t.database.db, 24, new Date(later.getTime() + 60_000));
    expect(await alertsOf(buyer)).toHaveLength(1);
  });
});

describe('two servers', () => {
  it('tell each person once of each phone, whichever takes it', async () => {
    const buyers = await Promise.all([1, 2, 3].map(() => createAccount(t.app, 'user')));
    const word = uniqueWord();
    for (const buyer of buyers) await save(buyer, `q=${word}`);
    const phones = [];
    for (let i = 0; i < 6; i++) phones.push(await list(word));
    const workers = [1, 2].map(
      () =>
        new SavedSearchAlerts(
          { db: t.database.db, index: new SavedSearchIndex(t.database.db), digestHours: 24 },
          () => undefined,
          (err) => {
            throw err;
          },
        ),
    );
    await Promise.all(workers.map((w) => w.round()));
    for (const buyer of buyers) expect(await alertsOf(buyer)).toHaveLength(6);
  });
});

describe('a phone whose alerts cannot be told', () => {
  it('holds up no other phone, is tried again each round, and is dropped after the last try', async () => {
    const buyer = await createAccount(t.app, 'user');
    const word = uniqueWord();
    await save(buyer, `q=${word}`);
    const bad = await list(word);
    const good = await list(word);
    // Recording this one phone's alert fails, as a bug or a bad row would.
    await t.database.db.execute(
      sql.raw(`create function fail_alert() returns trigger language plpgsql as $$
        begin raise exception 'alert refused'; end $$`),
    );
    await t.database.db.execute(
      sql.raw(`create trigger fail_alert before insert on saved_search_alerts for each row
        when (new.product_id = '${bad.id}') execute function fail_alert()`),
    );
    const failures: [string, boolean][] = [];
    const worker = new SavedSearchAlerts(
      {
        db: t.database.db,
        index: new SavedSearchIndex(t.database.db),
        digestHours: 24,
        onPhoneError: (_err, productId, dropped) => failures.push([productId, dropped]),
      },
      () => undefined,
      (err) => {
        throw err;
      },
    );
    try {
      await worker.round();
      expect((await alertsOf(buyer)).map((n) => n.link)).toEqual([`/product/${good.id}`]);
      expect(failures).toEqual([[bad.id, false]]);
      for (let round = 2; round <= MAX_ATTEMPTS; round++) await worker.round();
      expect(failures).toHaveLength(MAX_ATTEMPTS);
      expect(failures.at(-1)).toEqual([bad.id, true]);
      const left = await rowsOf(
        t.database.db,
        sql`select 1 from listing_alert_queue where product_id = ${bad.id}`,
      );
      expect(left).toEqual([]);
    } finally {
      await t.database.db.execute(sql.raw('drop trigger fail_alert on saved_search_alerts'));
      await t.database.db.execute(sql.raw('drop function fail_alert()'));
    }
  });
});

describe('saving, editing and deleting', () => {
  it('keeps each person’s searches their own, and at most 25 of them', async () => {
    const owner = await createAccount(t.app, 'user');
    const other = await createAccount(t.app, 'user');
    const id = await save(owner, 'q=galaxy');
    for (const [method, url, payload] of [
      ['PUT', `/api/saved-searches/${id}`, { name: 'Mine now' }],
      ['DELETE', `/api/saved-searches/${id}`],
      ['POST', `/api/saved-searches/${id}/seen`],
    ] as const) {
      const res = await call(other, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call(other, 'GET', '/api/saved-searches')).json()).toEqual([]);
    for (let i = 1; i < SAVED_SEARCHES_MAX; i++) await save(owner, `q=galaxy+${i}`);
    const over = await call(owner, 'POST', '/api/saved-searches', {
      name: 'One too many',
      search: 'q=pixel',
      frequency: 'instant',
    });
    expect(over.statusCode).toBe(409);
    expect(over.json().message).toMatch(/at most 25 searches/);
    const gone = await call(owner, 'DELETE', `/api/saved-searches/${id}`);
    expect(gone.json()).toEqual({ deletedCount: 1 });
  });

  it('refuses a search the search would refuse, saying why, and saves nothing', async () => {
    const owner = await createAccount(t.app, 'user');
    for (const [search, message] of [
      ['storage=3+TB', /^search: storage must be one of/],
      ['minPrice=500&maxPrice=100', /minPrice must not be above maxPrice/],
      ['q=%2B%2B%2B_', /not words a phone can have/],
    ] as const) {
      const res = await call(owner, 'POST', '/api/saved-searches', {
        name: 'Bad',
        search,
        frequency: 'instant',
      });
      expect(res.statusCode, search).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect((await call(owner, 'GET', '/api/saved-searches')).json()).toEqual([]);
  });
});

describe('waiting buyers', () => {
  it('counts the buyers whose searches a phone would match, naming nobody', async () => {
    const word = uniqueWord();
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => createAccount(t.app, 'user')));
    await save(a as Account, `q=${word}&storage=128+GB&maxPrice=500`);
    await save(a as Account, `q=${word}`);
    await save(b as Account, `q=${word}&brand=01`);
    await save(c as Account, `q=${word}&maxPrice=100`);
    const ask = (price: number) =>
      call(
        seller,
        'GET',
        `/api/saved-searches/waiting?categoryId=01&modelName=Pixel+${word}&ram=8+GB&storage=128+GB&condition=Good&price=${price}`,
      );
    const res = await ask(450);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ buyers: 2 });
    expect((await ask(90)).json()).toEqual({ buyers: 3 });
    const buyerAsks = await call(
      a as Account,
      'GET',
      '/api/saved-searches/waiting?categoryId=01&ram=8+GB&storage=128+GB&condition=Good&price=1',
    );
    expect(buyerAsks.statusCode).toBe(403);
  });
});
