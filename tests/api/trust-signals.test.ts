/**
 * Trust signals one person cannot buy (issue 29, decision 038): sales between related accounts
 * (seen from one client address, or the seller paid with the buyer's card) count neither in the
 * price guide, nor in the cards' price notes, nor in ratings; a rating counts once per rater and
 * rated account. Each person here acts from an address of their own (documentation ranges), as
 * requests from a loopback address say nothing about who sent them.
 */
import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountAddresses, orders, users } from '../../src/server/db/schema';
import { productSchema } from '../../src/shared/entities';
import { type Account, createAccount } from '../helpers/accounts';
import { createProduct, createSale, uniqueWord, withCheckDigit } from '../helpers/factories';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const CARD = { number: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' };
/** A card number of a person's own: Luhn-valid, random. */
const cardNumber = () =>
  withCheckDigit(`4${Array.from({ length: 14 }, () => randomInt(10)).join('')}`);

let t: TestApp;
let addresses = 0;
/** A person acting from an address of their own (TEST-NET-3, 203.0.113.0/24). */
const newAddress = () => `203.0.113.${++addresses}`;

type Person = Account & { address: string; card: typeof CARD };

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** An account of one person, signed in (a token asked for) from `address`. */
async function person(type: 'user' | 'seller', address = newAddress()): Promise<Person> {
  const account = await createAccount(t.app, type);
  const token = await t.app.inject({
    url: `/api/jwt?email=${encodeURIComponent(account.email)}`,
    headers: { cookie: account.cookie },
    remoteAddress: address,
  });
  expect(token.statusCode).toBe(200);
  return { ...account, address, card: { ...CARD, number: cardNumber() } };
}

const rowOf = async (who: Account) =>
  (
    await t.database.db.select().from(users).where(eq(users.email, who.email))
  )[0] as typeof users.$inferSelect;

const call = (who: Person, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: who.bearer,
    remoteAddress: who.address,
    ...(payload ? { payload } : {}),
  });

/** `buyer` books, pays for (with `card`) and is handed `seller`'s phone; the order's id. */
async function buyThroughTheApp(
  buyer: Person,
  seller: Person,
  productId: string,
  priceCents: number,
  card = buyer.card,
) {
  const booked = await call(buyer, 'POST', '/api/order', {
    productId,
    location: 'City Library',
    number: '+1 303 555 0142',
  });
  expect(booked.statusCode, booked.body).toBe(200);
  const orderId = booked.json().insertedId as string;
  const intent = await call(buyer, 'POST', '/api/create-payment-intent', {
    orderId,
    price: priceCents / 100,
  });
  expect(intent.statusCode, intent.body).toBe(200);
  const confirmed = await t.app.inject({
    method: 'POST',
    url: '/api/test-payments/confirm',
    remoteAddress: buyer.address,
    payload: {
      clientSecret: intent.json().clientSecret,
      card,
      billingDetails: { name: 'Buyer', email: buyer.email },
    },
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  const code = (await call(buyer, 'GET', `/api/orders/${orderId}`)).json().handoverCode;
  const handedOver = await call(seller, 'POST', `/api/orders/${orderId}/handover`, { code });
  expect(handedOver.statusCode, handedOver.body).toBe(200);
  return orderId;
}

const armsLengthOf = async (orderId: string) =>
  (await t.database.db.select().from(orders).where(eq(orders.id, orderId)))[0]?.armsLength;

const rateAs = async (who: Person, orderId: string, stars: number) =>
  expect((await call(who, 'POST', `/api/orders/${orderId}/rating`, { stars })).statusCode).toBe(
    200,
  );

/** The seller's rating as their public page shows it. */
const ratingOf = async (seller: Account) =>
  (await t.app.inject(`/api/sellers/${(await rowOf(seller)).id}`)).json().rating;

const guide = async (modelName: string, who: Account) =>
  (
    await t.app.inject({
      url: `/api/price-guide?${new URLSearchParams({ modelName, storage: '128 GB' })}`,
      headers: who.bearer,
    })
  ).json();

const noteOf = async (productId: string) => {
  const body = (await t.app.inject(`/api/products/${productId}`)).json();
  return productSchema.parse(body.product ?? body).priceNote;
};

describe('one person with a seller and a buyer account', () => {
  it('moves neither the price guide, nor the notes on other sellers’ phones, nor their own rating', async () => {
    const modelName = `Pixel ${uniqueWord()}`;
    // The market: five sales at $500 by three sellers to five buyers.
    const marketSellers = await Promise.all([1, 2, 3].map(() => person('seller')));
    for (const [i, price] of [500, 500, 500, 500, 500].entries()) {
      const sold = await createProduct(t.database.db, await rowOf(marketSellers[i % 3] as Person), {
        modelName,
        resellPriceCents: price * 100,
      });
      await createSale(t.database.db, sold);
    }
    const competitor = await createProduct(t.database.db, await rowOf(marketSellers[0] as Person), {
      modelName,
      resellPriceCents: 48_000,
    });
    expect(await noteOf(competitor.id)).toBe('good');

    // One machine, two accounts, six sales at $0.50 to oneself, each rated five stars.
    const here = newAddress();
    const self = await person('seller', here);
    const alsoSelf = await person('user', here);
    const sellerRow = await rowOf(self);
    for (let i = 0; i < 6; i++) {
      const phone = await createProduct(t.database.db, sellerRow, {
        modelName,
        resellPriceCents: 50,
      });
      const orderId = await buyThroughTheApp(alsoSelf, self, phone.id, 50);
      expect(await armsLengthOf(orderId)).toBe(false);
      await rateAs(alsoSelf, orderId, 5);
    }

    expect(await guide(modelName, self)).toMatchObject({ count: 5, median: 500, low: 500 });
    expect(await noteOf(competitor.id)).toBe('good');
    expect(await ratingOf(self)).toEqual({ average: null, count: 0 });
  });

  it('is not hidden by crowding the address with fresh accounts; a network of old ones relates nobody', async () => {
    const here = newAddress();
    const self = await person('seller', here);
    const alsoSelf = await person('user', here);
    // Ten more accounts signed in there for the purpose: fresh, so the address is no network's.
    const crowd = await Promise.all(Array.from({ length: 10 }, () => person('user', here)));
    const phone = async () =>
      createProduct(t.database.db, await rowOf(self), { resellPriceCents: 50 });
    expect(await armsLengthOf(await buyThroughTheApp(alsoSelf, self, (await phone()).id, 50))).toBe(
      false,
    );
    // The same crowd, all members for months: a carrier's or a campus's address, which relates
    // nobody (two strangers behind one gateway).
    const monthsAgo = new Date(Date.now() - 90 * 24 * 60 * 60 * 1000);
    for (const account of [self, alsoSelf, ...crowd])
      await t.database.db
        .update(users)
        .set({ createdAt: monthsAgo })
        .where(eq(users.email, account.email));
    expect(await armsLengthOf(await buyThroughTheApp(alsoSelf, self, (await phone()).id, 50))).toBe(
      true,
    );
  });

  it('is also found by the card: buyer accounts that pay one seller with one card', async () => {
    const seller = await person('seller');
    const sellerRow = await rowOf(seller);
    const card = { ...CARD, number: cardNumber() };
    const orderIds: string[] = [];
    for (const buyer of [await person('user'), await person('user')]) {
      const phone = await createProduct(t.database.db, sellerRow, { resellPriceCents: 800 });
      const orderId = await buyThroughTheApp(buyer, seller, phone.id, 800, card);
      await rateAs(buyer, orderId, 5);
      orderIds.push(orderId);
    }
    expect(await Promise.all(orderIds.map(armsLengthOf))).toEqual([true, false]);
    expect(await ratingOf(seller)).toEqual({ average: 5, count: 1 });
  });
});

describe('sales between unrelated accounts', () => {
  it('count, and a rating counts once per buyer and seller: the latest', async () => {
    const seller = await person('seller');
    const [first, second] = await Promise.all([person('user'), person('user')]);
    const sellerRow = await rowOf(seller);
    const sale = async (buyer: Person) => {
      const phone = await createProduct(t.database.db, sellerRow, { resellPriceCents: 700 });
      const orderId = await buyThroughTheApp(buyer, seller, phone.id, 700);
      expect(await armsLengthOf(orderId)).toBe(true);
      return orderId;
    };
    await rateAs(first, await sale(first), 5);
    const secondSale = await sale(second);
    await rateAs(second, secondSale, 4);
    expect(await ratingOf(seller)).toEqual({ average: 4.5, count: 2 });
    // The first buyer again: their second rating replaces their first.
    await rateAs(first, await sale(first), 2);
    expect(await ratingOf(seller)).toEqual({ average: 3, count: 2 });
    // The seller's ratings of one buyer, likewise.
    await rateAs(seller, secondSale, 5);
    const secondAgain = await sale(second);
    await rateAs(seller, secondAgain, 3);
    const view = (await call(seller, 'GET', `/api/orders/${secondAgain}`)).json();
    expect(view.buyer.rating).toEqual({ average: 3, count: 1 });
  });

  it('keep no address but a keyed fingerprint, and none of a loopback or private address', async () => {
    const someone = await person('user', '198.51.100.77');
    const seen = await t.database.db
      .select()
      .from(accountAddresses)
      .where(eq(accountAddresses.userId, (await rowOf(someone)).id));
    expect(seen).toHaveLength(1);
    expect(seen[0]?.addressHash).not.toContain('198.51.100');
    expect(seen[0]?.addressHash).toMatch(/^[\w-]{43}$/);
    for (const address of ['127.0.0.1', '10.1.2.3', '192.168.0.9', '::1', 'fd00::1']) {
      const local = await person('user', address);
      const rows = await t.database.db
        .select()
        .from(accountAddresses)
        .where(eq(accountAddresses.userId, (await rowOf(local)).id));
      expect(rows, address).toEqual([]);
    }
  });
});
