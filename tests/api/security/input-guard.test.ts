/**
 * Input PostgreSQL cannot take, and prices that are not prices, are refused with a 400 that names
 * the field, and change nothing: a NUL character (U+0000, which PostgreSQL's text refuses) or a
 * lone surrogate anywhere in a body, query or path, on every route the identity mount's included;
 * a price under one cent. Each case answered 500 before the input guard and the dollars schema.
 */
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Account,
  createAccount,
  GOOD_PASSWORD,
  SAME_SITE,
  signUp,
} from '../../helpers/accounts';
import { buyingCalls } from '../../helpers/buying';
import { uniqueImei } from '../../helpers/factories';
import { fingerprint } from '../../helpers/fingerprint';
import { storedPhoto } from '../../helpers/multipart';
import { buildTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
let seller: Account;
let buyer: Account;
let photo: string;
const { phone, bookedOrder, intentFor } = buyingCalls(() => ({ t, seller }));

beforeAll(async () => {
  t = await buildTestApp();
  [seller, buyer] = await Promise.all([
    createAccount(t.app, 'seller'),
    createAccount(t.app, 'user'),
  ]);
  photo = await storedPhoto(t.app, seller.bearer);
});
afterAll(() => t.close());

const NUL = '\u0000';
const CARD = { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2034, cvc: '123' };

const product = (overrides: Record<string, unknown> = {}) => ({
  categoryId: '01',
  modelName: 'Pixel 8',
  image: photo,
  originalPrice: 699,
  resellPrice: 449.99,
  location: 'Austin, TX',
  description: 'Like new.',
  timeUsed: 3,
  condition: 'Good',
  sellerNumber: '+1 512 555 0100',
  specificatons: { ram: '8 GB', storage: '128 GB', color: 'Black', battery: 4500 },
  imei: uniqueImei(),
  ...overrides,
});

/** Sends the request; it must be a 400 whose message matches, and no table may change. */
async function expectRefused(request: InjectOptions, message: RegExp) {
  const before = await fingerprint(t.database.db);
  const res = await t.app.inject(request);
  const shown = `${request.method} ${request.url} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, shown).toBe(400);
  expect(res.headers['content-type'], shown).toMatch(/^application\/json/);
  expect(res.json().message, shown).toMatch(message);
  expect(await fingerprint(t.database.db), shown).toEqual(before);
}

describe('a NUL character is a 400 naming the field, on every route', () => {
  it('in the e-mail and the password of a sign-in', async () => {
    const { email } = await signUp(t.app);
    for (const payload of [
      { email: `${NUL}${email}`, password: GOOD_PASSWORD },
      { email: `${email}${NUL}`, password: GOOD_PASSWORD },
      { email, password: `${GOOD_PASSWORD}${NUL}` },
    ]) {
      const field = payload.email.includes(NUL) ? 'email' : 'password';
      await expectRefused(
        { method: 'POST', url: '/api/auth/sign-in/email', headers: SAME_SITE, payload },
        new RegExp(`^${field}: must not contain a NUL character`),
      );
    }
  });

  it('in the name of a sign-up', async () => {
    await expectRefused(
      {
        method: 'POST',
        url: '/api/auth/sign-up/email',
        headers: SAME_SITE,
        payload: { email: 'nul-name@test.example', name: `A${NUL}B`, password: GOOD_PASSWORD },
      },
      /^name: must not contain a NUL character/,
    );
  });

  it('in the client secret and the billing details of a card confirmation', async () => {
    const payer = await createAccount(t.app, 'user');
    const order = await bookedOrder(payer, (await phone()).id);
    const { clientSecret } = (await intentFor(payer, order.id)).json();
    const billingDetails = { name: 'Buyer', email: 'buyer@test.example' };
    await expectRefused(
      {
        method: 'POST',
        url: '/api/test-payments/confirm',
        payload: { clientSecret: `${clientSecret}${NUL}`, card: CARD, billingDetails },
      },
      /^clientSecret: must not contain a NUL character/,
    );
    await expectRefused(
      {
        method: 'POST',
        url: '/api/test-payments/confirm',
        payload: {
          clientSecret,
          card: { ...CARD, number: `4242${NUL}4242424242424242` },
          billingDetails: { ...billingDetails, name: `Bu${NUL}yer` },
        },
      },
      /^card\.number: must not contain a NUL character; billingDetails\.name: must not contain a NUL character$/,
    );
  });

  it('in the name of a saved user (POST /users)', async () => {
    const account = await signUp(t.app);
    await expectRefused(
      {
        method: 'POST',
        url: '/api/users',
        headers: { cookie: account.cookie },
        payload: { email: account.email, name: `Dana${NUL}`, type: 'user' },
      },
      /^name: must not contain a NUL character/,
    );
  });

  it('in the meeting place of a booking (POST /order)', async () => {
    const p = await phone();
    await expectRefused(
      {
        method: 'POST',
        url: '/api/order',
        headers: buyer.bearer,
        payload: { productId: p.id, location: `Cafe${NUL}`, number: '+1 555 0100' },
      },
      /^location: must not contain a NUL character/,
    );
  });

  it('in a listed phone, nested fields named by their path (POST /products)', async () => {
    await expectRefused(
      {
        method: 'POST',
        url: '/api/products',
        headers: seller.bearer,
        payload: product({ modelName: `Pixel${NUL}8` }),
      },
      /^modelName: must not contain a NUL character/,
    );
    await expectRefused(
      {
        method: 'POST',
        url: '/api/products',
        headers: seller.bearer,
        payload: product({
          specificatons: { ram: '8 GB', storage: '128 GB', color: `Bl${NUL}ack`, battery: 4500 },
        }),
      },
      /^specificatons\.color: must not contain a NUL character/,
    );
  });

  it('in a key, in an array item, and in a lone surrogate', async () => {
    await expectRefused(
      {
        method: 'POST',
        url: '/api/wishlist',
        headers: buyer.bearer,
        payload: { productId: (await phone()).id, [`x${NUL}`]: 1 },
      },
      /^x\\u0000: must not contain a NUL character/,
    );
    await expectRefused(
      {
        method: 'POST',
        url: '/api/order',
        headers: buyer.bearer,
        payload: {
          productId: (await phone()).id,
          location: 'Cafe',
          number: '1',
          extra: ['a', NUL],
        },
      },
      /^extra\.1: must not contain a NUL character/,
    );
    await expectRefused(
      {
        method: 'POST',
        url: '/api/order',
        headers: buyer.bearer,
        payload: { productId: (await phone()).id, location: 'Cafe\uD800', number: '1' },
      },
      /^location: must be valid Unicode \(it holds a lone surrogate\)/,
    );
  });

  it('percent-encoded in a query string or a path parameter', async () => {
    await expectRefused(
      { method: 'GET', url: '/api/jwt?email=a%00b', headers: { cookie: buyer.cookie } },
      /^email: must not contain a NUL character/,
    );
    await expectRefused(
      {
        method: 'GET',
        url: `/api/order?email=${encodeURIComponent(`${buyer.email}\u0000`)}`,
        headers: buyer.bearer,
      },
      /^email: must not contain a NUL character/,
    );
    await expectRefused(
      { method: 'GET', url: '/api/users/admin/a%00b' },
      /^email: must not contain a NUL character/,
    );
    await expectRefused(
      { method: 'GET', url: '/api/users/seller/a%00b%40test.example' },
      /^email: must not contain a NUL character/,
    );
  });
});

describe('a price must be at least one cent, with at most two decimals', () => {
  it.each([0.000000001, 0.001, 0.004999, '0.000000001', '0.00'])(
    'refuses %s as the price of a listed phone',
    async (price) => {
      await expectRefused(
        {
          method: 'POST',
          url: '/api/products',
          headers: seller.bearer,
          payload: product({ resellPrice: price }),
        },
        /^Resale price \(\$\): the price must be at least \$0\.01/,
      );
    },
  );

  it('refuses 0.000000001 as the price of a payment intent', async () => {
    const payer = await createAccount(t.app, 'user');
    const order = await bookedOrder(payer, (await phone()).id);
    await expectRefused(
      {
        method: 'POST',
        url: '/api/create-payment-intent',
        headers: payer.bearer,
        payload: { price: 0.000000001, orderId: order.id },
      },
      /^price: must be at least 0\.01/,
    );
  });

  it.each([449, 449.99, '449.99', 0.01, 0.1 + 0.2, 1_000_000])(
    'still lists a phone at %s',
    async (price) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/products',
        headers: seller.bearer,
        payload: product({ resellPrice: price }),
      });
      expect(res.statusCode, res.body).toBe(200);
    },
  );
});
