/**
 * Nobody's way to be reached in a public answer or page (issue 29): with a seller, a buyer, a
 * booking, a paid sale and a completed one in the data, every public call of the contract and
 * every public page, asked by a stranger and by a signed-in third party, carries none of the
 * contact fields and none of the people's addresses or numbers, also where they typed them
 * into a name, a description or a meeting point.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, outboxMails, type products, users } from '../../../src/server/db/schema';
import { decideReports } from '../../../src/server/repositories/reports';
import { calls } from '../../../src/shared/api';
import { type Account, createAccount } from '../../helpers/accounts';
import { advertise, createProduct, orderValues } from '../../helpers/factories';
import { expectNoContact, pageState } from '../../helpers/never-public';
import { buildTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
let seller: Account;
let buyer: Account;
let third: Account;
const SELLER_NUMBER = '+1 206 555 0199';
const BUYER_NUMBER = '+1 206 555 0142';
/** What the two typed where others read it: a name, a description, a meeting point. */
const TYPED = {
  sellerName: 'Sam, text 206 555 0177',
  description: 'Mint. Text me on 206.555.0188 or write deals@phones.example',
  meetingPoint: 'Cafe, call 555 987 6543 or bob@example.com',
  buyerName: 'Call 5551234567',
};
const contacts = () => ({
  emails: [seller.email, buyer.email, third.email, 'deals@phones.example', 'bob@example.com'],
  numbers: [
    SELLER_NUMBER,
    BUYER_NUMBER,
    '206 555 0177',
    '206 555 0188',
    '555 987 6543',
    '5551234567',
  ],
});
const ids = {} as Record<'forSale' | 'booked' | 'paid' | 'sold' | 'seller', string>;

beforeAll(async () => {
  t = await buildTestApp();
  seller = await createAccount(t.app, 'seller');
  buyer = await createAccount(t.app, 'user');
  third = await createAccount(t.app, 'user');
  const db = t.database.db;
  await db.update(users).set({ name: TYPED.sellerName }).where(eq(users.id, seller.id));
  await db.update(users).set({ name: TYPED.buyerName }).where(eq(users.id, buyer.id));
  const [row] = await db.select().from(users).where(eq(users.id, seller.id));
  const sellerRow = row as typeof users.$inferSelect;
  const phone = (status: 'available' | 'sold' = 'available') =>
    createProduct(db, sellerRow, {
      sellerNumber: SELLER_NUMBER,
      description: TYPED.description,
      modelName: 'Privacy Phone 12',
      status,
    });
  const forSale = await phone();
  await advertise(db, forSale);
  const booked = await phone();
  const booking = await t.app.inject({
    method: 'POST',
    url: '/api/order',
    headers: buyer.bearer,
    payload: { productId: booked.id, location: TYPED.meetingPoint, number: BUYER_NUMBER },
  });
  expect(booking.statusCode).toBe(200);
  const sale = (product: typeof products.$inferSelect, stage: 'paid' | 'completed') =>
    db.insert(orders).values(
      orderValues(buyer, product.id, {
        userName: TYPED.buyerName,
        location: TYPED.meetingPoint,
        number: BUYER_NUMBER,
        productName: product.modelName,
        priceCents: product.resellPriceCents,
        status: 'paid',
        stage,
        sellerId: seller.id,
        sellerEmail: seller.email,
        sellerName: TYPED.sellerName,
        sellerNumber: SELLER_NUMBER,
        paidAt: new Date(),
        completedAt: stage === 'completed' ? new Date() : null,
      }),
    );
  const paid = await phone('sold');
  await sale(paid, 'paid');
  const sold = await phone('sold');
  await sale(sold, 'completed');
  Object.assign(ids, {
    forSale: forSale.id,
    booked: booked.id,
    paid: paid.id,
    sold: sold.id,
    seller: seller.id,
  });
});
afterAll(() => t.close());

/** A URL for every public read of the contract; a public call added without one fails below. */
const PUBLIC_CALLS: Record<string, () => string[]> = {
  adminCheck: () => [`/api/users/admin/${encodeURIComponent(seller.email)}`],
  sellerCheck: () => [`/api/users/seller/${encodeURIComponent(seller.email)}`],
  listCategories: () => ['/api/category'],
  categoryProducts: () => ['/api/category/01'],
  listAdvertised: () => ['/api/advertise'],
  searchProducts: () => ['/api/search?q=privacy', '/api/search?q=privacy&sold=true'],
  product: () => [ids.forSale, ids.booked, ids.paid, ids.sold].map((id) => `/api/products/${id}`),
  similarProducts: () =>
    [ids.forSale, ids.booked, ids.paid, ids.sold].map((id) => `/api/products/${id}/similar`),
  seller: () => [`/api/sellers/${ids.seller}`],
  sellerListings: () => [`/api/sellers/${ids.seller}/products`],
  priceHistory: () => ['/api/price-guide/history?modelName=Privacy%20Phone%2012&storage=128%20GB'],
  health: () => ['/api/health'],
  config: () => ['/api/config'],
};
/** The pages anyone may open, rendered by the server with their state (decision 016). */
const PUBLIC_PAGES = () => [
  '/',
  '/category/01',
  '/search?q=privacy',
  '/search?q=privacy&sold=true',
  ...[ids.forSale, ids.booked, ids.paid, ids.sold].map((id) => `/product/${id}`),
  `/seller/${ids.seller}`,
  '/blog',
  '/signin',
  '/signup',
  '/robots.txt',
  '/sitemap.xml',
  '/sitemaps/pages.xml',
  '/sitemaps/products-1.xml',
];

const CALLERS = {
  'a stranger': () => ({}),
  'a signed-in third party': () => ({ ...third.bearer, cookie: third.cookie }),
};

describe.each(Object.entries(CALLERS))('as %s', (_who, headers) => {
  it('finds no way to reach anyone in any public call', async () => {
    for (const url of Object.values(PUBLIC_CALLS).flatMap((urls) => urls())) {
      const res = await t.app.inject({ method: 'GET', url, headers: headers() });
      expect(res.statusCode, url).toBe(200);
      expectNoContact(url, res.body, contacts(), res.json());
    }
  });

  it('finds no way to reach anyone in any public page, its state included', async () => {
    let rendered = 0;
    for (const url of PUBLIC_PAGES()) {
      const res = await t.app.inject({
        method: 'GET',
        url,
        headers: { ...headers(), accept: 'text/html' },
      });
      expect(res.statusCode, url).toBe(200);
      const state = pageState(res.body);
      if (state !== null) rendered++;
      expectNoContact(url, res.body, contacts(), state ?? undefined);
    }
    // The phone and seller pages and the lists are rendered with their state, not the shell.
    expect(rendered).toBeGreaterThanOrEqual(8);
  });
});

it('has a URL for every public read of the contract', () => {
  const publicReads = Object.entries(calls)
    .filter(([, call]) => call.access === 'public' && call.method === 'GET')
    .map(([name]) => name);
  expect(publicReads.sort()).toEqual(Object.keys(PUBLIC_CALLS).sort());
});

it('shows what the buyer typed to the seller through the mask until the payment', async () => {
  const sales = await t.app.inject({ method: 'GET', url: '/api/sales', headers: seller.bearer });
  expect(sales.statusCode).toBe(200);
  const booked = (
    sales.json() as { productId: string; meetingPoint: string; buyer: { name: string } }[]
  ).find((s) => s.productId === ids.booked);
  expect(booked?.meetingPoint).toBe('Cafe, call [hidden until payment] or [hidden until payment]');
  expect(booked?.buyer.name).toBe('Call [hidden until payment]');
});

it("tells the seller of the booking, in the bell and the mail, without the buyer's contacts", async () => {
  const bell = await t.app.inject({ url: '/api/notifications', headers: seller.bearer });
  expect(bell.statusCode).toBe(200);
  expect(JSON.stringify(bell.json())).toContain('booked your Privacy Phone 12');
  const mails = await t.database.db
    .select()
    .from(outboxMails)
    .where(eq(outboxMails.toAddress, seller.email));
  expect(mails.map((m) => m.kind)).toContain('booking');
  for (const [what, body] of [
    ['the bell', bell.body],
    ...mails.map((m) => [`the ${m.kind} mail`, `${m.subject}\n${m.textBody}\n${m.htmlBody}`]),
  ] as [string, string][])
    expectNoContact(what, body, {
      emails: [buyer.email, 'bob@example.com'],
      numbers: [BUYER_NUMBER, '5551234567', '555 987 6543'],
    });
});

it("shows a reporter their reports of a seller and a phone without anyone's contacts, and the decision too", async () => {
  const reporter = await createAccount(t.app, 'user');
  for (const url of [`/api/sellers/${ids.seller}/reports`, `/api/products/${ids.sold}/reports`]) {
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: reporter.bearer,
      payload: { reason: 'scam' },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  const mine = await t.app.inject({ url: '/api/reports', headers: reporter.bearer });
  expect(mine.statusCode).toBe(200);
  expect(mine.json()).toHaveLength(2);
  expectNoContact('my reports', mine.body, contacts(), mine.json());
  await t.database.db.transaction((tx) => decideReports(tx, { sellerId: ids.seller }, 'upheld'));
  const bell = await t.app.inject({ url: '/api/notifications', headers: reporter.bearer });
  expect(JSON.stringify(bell.json())).toContain('took action');
  const mails = await t.database.db
    .select()
    .from(outboxMails)
    .where(and(eq(outboxMails.toAddress, reporter.email), eq(outboxMails.kind, 'report-decided')));
  expect(mails).toHaveLength(1);
  for (const [what, body] of [
    ['the bell', bell.body],
    ...mails.map((m) => [`the ${m.kind} mail`, `${m.subject}\n${m.textBody}\n${m.htmlBody}`]),
  ] as [string, string][])
    expectNoContact(what, body, contacts());
});
