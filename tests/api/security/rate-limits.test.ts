/**
 * The calls worth guessing or flooding are limited, each keyed by who is acting (an e-mail, a
 * seller, a buyer, a payment intent), never by address: many phones share one carrier address.
 * Past the limit the answer is 429 with a message and a Retry-After, and nothing is done.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentIntents } from '../../../src/server/db/schema';
import { type Account, createAccount, SAME_SITE } from '../../helpers/accounts';
import { buyingCalls } from '../../helpers/buying';
import { uploadPhoto } from '../../helpers/multipart';
import { buildTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
let seller: Account;
const { phone, bookedOrder, intentFor, confirmCard } = buyingCalls(() => ({ t, seller }));

beforeAll(async () => {
  t = await buildTestApp();
  seller = await createAccount(t.app, 'seller');
});
afterAll(() => t.close());

/** Makes `allowed` calls that must pass, then one that must be refused as too many. */
async function exhaust(
  allowed: number,
  call: () => Promise<LightMyRequestResponse>,
  okStatus = 200,
): Promise<LightMyRequestResponse> {
  for (let i = 0; i < allowed; i++) expect((await call()).statusCode).toBe(okStatus);
  const refused = await call();
  expect(refused.statusCode).toBe(429);
  expect(refused.json().message).toMatch(
    /^Too many requests, please try again in \d+ (second|minute)/,
  );
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  return refused;
}

const inject = (options: InjectOptions) => t.app.inject(options);

describe('rate limits', () => {
  it('gives an identity 30 access tokens a minute, and nobody can spend them for it', async () => {
    const buyer = await createAccount(t.app, 'user');
    const tokenCall = (headers: Record<string, string>) => () =>
      inject({ method: 'GET', url: `/api/jwt?email=${buyer.email}`, headers });
    // Someone without the session asking for the buyer's tokens is refused, and uses up nothing.
    for (let i = 0; i < 40; i++) expect((await tokenCall({ ...SAME_SITE })()).statusCode).toBe(401);
    // Signing up took the first token of the minute.
    await exhaust(29, tokenCall({ cookie: buyer.cookie }));
    // Another identity has its own allowance.
    const other = await createAccount(t.app, 'user');
    const own = await inject({
      method: 'GET',
      url: `/api/jwt?email=${other.email}`,
      headers: { cookie: other.cookie },
    });
    expect(own.statusCode).toBe(200);
  });

  it('takes 30 photos a minute from a seller, and stores nothing past that', async () => {
    const photo = await sharp({
      create: { width: 32, height: 24, channels: 3, background: '#246' },
    })
      .jpeg()
      .toBuffer();
    const upload = () => uploadPhoto(t.app, seller.bearer, photo);
    const storedFiles = async () => (await readdir(path.join(t.dataDir, 'uploads'))).length;
    // The same bytes are stored once (content-addressed), so a count after the first is stable.
    expect((await upload()).statusCode).toBe(200);
    const stored = await storedFiles();
    await exhaust(29, upload);
    expect(await storedFiles()).toBe(stored);
  });

  it('opens 30 payment intents a minute for a buyer', async () => {
    const buyer = await createAccount(t.app, 'user');
    const order = await bookedOrder(buyer, (await phone()).id);
    const intents = async () => (await t.database.db.select().from(paymentIntents)).length;
    let opened = 0;
    await exhaust(30, async () => {
      opened = await intents();
      return intentFor(buyer, order.id);
    });
    expect(await intents()).toBe(opened);
  });

  it('tries 10 cards a minute against one payment intent', async () => {
    const buyer = await createAccount(t.app, 'user');
    const order = await bookedOrder(buyer, (await phone()).id);
    const { clientSecret } = (await intentFor(buyer, order.id)).json();
    const confirmWith = (number: string) => () =>
      confirmCard(clientSecret, { number, expMonth: 12, expYear: 2034, cvc: '123' });
    const refused = await exhaust(10, confirmWith('4000000000000002'), 402);
    expect(refused.json().message).not.toMatch(/declined/i);
    // The right card is refused too until the minute is over: guessing is what is limited.
    const right = await confirmWith('4242424242424242')();
    expect(right.statusCode).toBe(429);
  });
});
