/**
 * The admin's Overview (issue 35, decision 056): figures by UTC day over a range, every day
 * present, the busiest models with their median price, the range's limits, and the CSV. Each
 * test counts days of its own, years back, where no other test of this file writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disputes, orders, reports, users } from '../../src/server/db/schema';
import { OVERVIEW_DAYS_MAX, utcDay } from '../../src/shared/overview';
import { type Account, createAccount, createAdmin } from '../helpers/accounts';
import { createProduct, createSeller, orderValues } from '../helpers/factories';
import { buildTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
let admin: Account;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await createAdmin(t.app);
});
afterAll(() => t.close());

const at = (iso: string) => new Date(iso);
const get = (url: string, headers = admin.bearer) => t.app.inject({ method: 'GET', url, headers });

/** A sale paid at `paidAt` (and handed over at `completedAt`) of a phone of `seller`'s. */
async function sale(
  seller: typeof users.$inferSelect,
  {
    modelName,
    priceCents,
    paidAt,
    completedAt,
    storage = '128 GB',
  }: {
    modelName: string;
    priceCents: number;
    paidAt: string;
    completedAt?: string;
    storage?: string;
  },
) {
  const phone = await createProduct(t.database.db, seller, {
    modelName,
    storage,
    createdAt: at(paidAt),
    status: 'sold',
  });
  const buyer = await createSeller(t.database.db, { type: 'user', createdAt: at('2000-06-01') });
  const [order] = await t.database.db
    .insert(orders)
    .values(
      orderValues(buyer, phone.id, {
        productName: modelName,
        storage,
        condition: 'Good',
        priceCents,
        status: 'paid',
        stage: completedAt ? 'completed' : 'paid',
        sellerId: seller.id,
        paidAt: at(paidAt),
        completedAt: completedAt ? at(completedAt) : null,
        createdAt: at(paidAt),
      }),
    )
    .returning();
  return order as typeof orders.$inferSelect;
}

/** RFC 4180 read back: quoted fields with doubled quotes, CRLF between records. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  expect(field, 'the text ends with a CRLF').toBe('');
  return rows;
}

describe('the figures by day', () => {
  it('counts listings, sales, money, accounts, disputes and reports on their UTC day, and a quiet day as zeros', async () => {
    const db = t.database.db;
    const seller = await createSeller(db, { createdAt: at('2001-03-01T23:59:59Z') });
    await createSeller(db, { createdAt: at('2001-03-03T00:00:00Z') });
    await createSeller(db, { type: 'user', createdAt: at('2001-03-03T12:00:00Z') });
    await createSeller(db, { type: 'user', createdAt: at('2001-03-03T13:00:00Z') });
    // A day outside the range on either side counts nowhere.
    await createSeller(db, { createdAt: at('2001-02-28T23:59:59Z') });
    await createProduct(db, seller, { createdAt: at('2001-03-06T00:00:00Z') });
    await createProduct(db, seller, { createdAt: at('2001-03-01T08:00:00Z') });
    const first = await sale(seller, {
      modelName: 'Overview One',
      priceCents: 45_050,
      paidAt: '2001-03-01T10:00:00Z',
      completedAt: '2001-03-03T10:00:00Z',
    });
    await sale(seller, {
      modelName: 'Overview One',
      priceCents: 30_000,
      paidAt: '2001-03-01T11:00:00Z',
    });
    await db
      .insert(disputes)
      .values({ orderId: first.id, reason: 'Cracked', createdAt: at('2001-03-05T09:00:00Z') });
    const [reporter] = await db.select().from(users).limit(1);
    await db.insert(reports).values({
      reporterId: reporter?.id as string,
      sellerId: seller.id,
      subjectName: seller.name,
      kind: 'seller',
      reason: 'scam',
      createdAt: at('2001-03-05T23:00:00Z'),
    });

    const res = await get('/api/overview?from=2001-03-01&to=2001-03-05');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.from).toBe('2001-03-01');
    expect(body.to).toBe('2001-03-05');
    const zero = {
      listings: 0,
      sales: 0,
      volume: 0,
      completed: 0,
      newSellers: 0,
      newBuyers: 0,
      disputes: 0,
      reports: 0,
    };
    expect(body.days).toEqual([
      // Two phones listed by hand and two sold ones (the sale helper lists each phone it sells).
      { ...zero, day: '2001-03-01', listings: 3, sales: 2, volume: 750.5, newSellers: 1 },
      { ...zero, day: '2001-03-02' },
      { ...zero, day: '2001-03-03', completed: 1, newSellers: 1, newBuyers: 2 },
      { ...zero, day: '2001-03-04' },
      { ...zero, day: '2001-03-05', disputes: 1, reports: 1 },
    ]);
  });

  it('lists the busiest models of the range, grouped as the price guide groups them, with their median price', async () => {
    const seller = await createSeller(t.database.db, { createdAt: at('2000-01-01') });
    const paidAt = '2002-05-10T10:00:00Z';
    for (const [modelName, priceCents] of [
      ['Busy Phone 9', 10_000],
      ['busy phone9', 30_000],
      ['Busy  Phone 9', 20_000],
      ['Busy Phone 9', 90_000],
      ['Quiet Phone', 50_000],
    ] as const)
      await sale(seller, { modelName, priceCents, paidAt });
    await sale(seller, {
      modelName: 'Busy Phone 9',
      priceCents: 99_900,
      paidAt,
      storage: '256 GB',
    });
    // Outside the range: not counted.
    await sale(seller, { modelName: 'Quiet Phone', priceCents: 1, paidAt: '2002-05-12T00:00:00Z' });

    const body = (await get('/api/overview?from=2002-05-10&to=2002-05-11')).json();
    expect(body.models).toEqual([
      { model: 'Busy Phone 9', storage: '128 GB', sales: 4, median: 250 },
      { model: 'Busy Phone 9', storage: '256 GB', sales: 1, median: 999 },
      { model: 'Quiet Phone', storage: '128 GB', sales: 1, median: 500 },
    ]);
    expect(body.days.map((d: { sales: number }) => d.sales)).toEqual([6, 0]);
  });

  it('answers the last 30 days up to today when no range is named, and 366 days at most', async () => {
    const body = (await get('/api/overview')).json();
    expect(body.to).toBe(utcDay(new Date()));
    expect(body.days).toHaveLength(30);
    expect(body.days.at(-1).day).toBe(body.to);
    const year = await get(`/api/overview?from=2003-01-01&to=2003-12-31`);
    expect(year.json().days).toHaveLength(365);
    const leap = await get(`/api/overview?from=2004-01-01&to=2004-12-31`);
    expect(leap.json().days).toHaveLength(OVERVIEW_DAYS_MAX);
  });

  it("counts today's listing on today's row", async () => {
    const seller = await createSeller(t.database.db);
    await createProduct(t.database.db, seller);
    const today = utcDay(new Date());
    const body = (await get(`/api/overview?from=${today}&to=${today}`)).json();
    expect(body.days).toHaveLength(1);
    expect(body.days[0].listings).toBeGreaterThanOrEqual(1);
  });
});

describe('the range', () => {
  it.each([
    ['from=yesterday', 'from must be a date written YYYY-MM-DD'],
    ['from=2026-1-5', 'from must be a date written YYYY-MM-DD'],
    ['to=2026-02-30', 'to is not a day of the calendar'],
    ['to=2026-13-01', 'to is not a day of the calendar'],
    ['from=1999-12-31&to=2000-01-10', 'from must be between 2000-01-01 and 2099-12-31'],
    ['from=2026-03-02&to=2026-03-01', 'from must not be after to'],
    ['from=2003-01-01&to=2004-01-02', 'to must be at most 366 days from from, both included'],
    ['from=2000-01-01&to=2099-12-31', 'to must be at most 366 days from from, both included'],
    [`from=${'9'.repeat(5000)}`, 'from must be a date written YYYY-MM-DD'],
    ['from=2026-01-01&from=2026-01-02', 'from must be a date written YYYY-MM-DD'],
  ])('refuses %s with a 400 that says why', async (query, message) => {
    const res = await get(`/api/overview?${query}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toContain(message);
    const csv = await get(`/api/overview.csv?${query}`);
    expect(csv.statusCode).toBe(400);
    expect(csv.json().message).toContain(message);
  });

  it('refuses a table other than days or models', async () => {
    const res = await get('/api/overview.csv?table=users');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('table must be days or models');
  });
});

describe('the CSV', () => {
  it('is an attachment of the same days, one row a day, that reads back', async () => {
    const seller = await createSeller(t.database.db, { createdAt: at('2005-07-02T05:00:00Z') });
    await sale(seller, {
      modelName: 'Csv Phone',
      priceCents: 12_345,
      paidAt: '2005-07-01T09:00:00Z',
    });
    const res = await get('/api/overview.csv?from=2005-07-01&to=2005-07-03');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="overview-2005-07-01-to-2005-07-03.csv"',
    );
    const json = (await get('/api/overview?from=2005-07-01&to=2005-07-03')).json();
    expect(parseCsv(res.body)).toEqual([
      [
        'day',
        'listings',
        'sales',
        'volume',
        'completed',
        'new_sellers',
        'new_buyers',
        'disputes',
        'reports',
      ],
      ...json.days.map((d: Record<string, number | string>) => [
        d.day,
        String(d.listings),
        String(d.sales),
        Number(d.volume).toFixed(2),
        String(d.completed),
        String(d.newSellers),
        String(d.newBuyers),
        String(d.disputes),
        String(d.reports),
      ]),
    ]);
    expect(parseCsv(res.body)[1]).toEqual([
      '2005-07-01',
      '1',
      '1',
      '123.45',
      '0',
      '0',
      '0',
      '0',
      '0',
    ]);
  });

  it('lets no formula a seller wrote as a model name reach a spreadsheet', async () => {
    const seller = await createSeller(t.database.db, { createdAt: at('2000-01-01') });
    const names = [
      '=HYPERLINK("http://x","y")',
      "+1+cmd|' /C calc'!A0",
      '-2+3',
      '@SUM(A1:A2)',
      '\tTabbed',
      '\rReturned',
      'Plain, with "quotes"',
    ];
    for (const modelName of names)
      await sale(seller, { modelName, priceCents: 10_000, paidAt: '2006-01-01T12:00:00Z' });
    const res = await get('/api/overview.csv?from=2006-01-01&to=2006-01-01&table=models');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="overview-models-2006-01-01-to-2006-01-01.csv"',
    );
    expect(res.body).toContain('"\'=HYPERLINK(""http://x"",""y"")"');
    const rows = parseCsv(res.body);
    expect(rows[0]).toEqual(['model', 'storage', 'sales', 'median_price']);
    const models = rows.slice(1).map((r) => r[0] as string);
    expect(models).toHaveLength(names.length);
    for (const model of models) expect(model).not.toMatch(/^[=+\-@\t\r]/);
    expect(models).toEqual(
      expect.arrayContaining([
        '\'=HYPERLINK("http://x","y")',
        "'-2+3",
        "'@SUM(A1:A2)",
        "'\tTabbed",
        "'\rReturned",
        'Plain, with "quotes"',
      ]),
    );
    for (const r of rows.slice(1)) expect(r.slice(1)).toEqual(['128 GB', '1', '100.00']);
  });

  it('is refused to a seller and a buyer', async () => {
    for (const type of ['seller', 'user'] as const) {
      const account = await createAccount(t.app, type);
      expect((await get('/api/overview.csv', account.bearer)).statusCode).toBe(403);
      expect((await get('/api/overview', account.bearer)).statusCode).toBe(403);
    }
    expect((await t.app.inject('/api/overview.csv')).statusCode).toBe(401);
  });
});
