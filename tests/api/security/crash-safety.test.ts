/**
 * Crash safety: the real server is killed with SIGKILL while buyers are booking and paying, then
 * started again on the same database. Everything it acknowledged must still be there, and the
 * money must add up: a paid order has its one payment record, its phone is sold, and no payment
 * exists without its order. Then it dies between the card processor's capture (or release) and
 * its own write, and the timed work must finish the step once it runs again. Runs on PGlite, and
 * on PostgreSQL when the run has TEST_DATABASE_URL.
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type ServerProcess, startServer } from '../../../scripts/lib/server-process';
import { type Db, openDatabase } from '../../../src/server/db/client';
import {
  ledgerTransactions,
  orders,
  paymentIntents,
  payments,
  payouts,
  products,
  testBankPayouts,
} from '../../../src/server/db/schema';
import { checkLedger } from '../../../src/server/ledger/check';
import { GOOD_PASSWORD, uniqueEmail } from '../../helpers/accounts';
import { uniqueImei } from '../../helpers/factories';
import { multipartFile } from '../../helpers/multipart';
import { createPostgresDatabase } from '../../helpers/test-app';

const PHONES = 48;
const BUYERS = 6;
const WORKERS = 8;
/** Acknowledged writes before the kill: far enough in that every kind of write is among them. */
const KILL_AFTER_ACKS = 30;
const PRICE = '120.50';
const CARD = { number: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' };

type Account = { email: string; bearer: { authorization: string } };

/** What the server answered 2xx for; only these must survive the crash. */
type Ack =
  | { kind: 'order'; email: string; productId: string }
  | { kind: 'paid'; email: string; productId: string; orderId: string }
  | { kind: 'payment'; orderId: string; insertedId: string };

let dataDir: string;
let databaseUrl: string | undefined;
let dropDatabase: (() => Promise<void>) | undefined;
let server: ServerProcess | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'phone-market-crash-'));
  const postgres = inject('postgresUrl');
  if (postgres) {
    const created = await createPostgresDatabase(postgres);
    databaseUrl = created.url;
    dropDatabase = created.drop;
  }
});

afterAll(async () => {
  await server?.kill();
  await dropDatabase?.();
  await rm(dataDir, { recursive: true, force: true });
});

/** JSON calls as the browser makes them: same-origin, bearer token when signed in. */
function client(base: () => ServerProcess) {
  const call = async (method: string, url: string, body?: unknown, headers = {}) => {
    const res = await fetch(`${base().url}/api${url}`, {
      method,
      headers: {
        origin: base().url,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${text}`);
    return { json: text ? JSON.parse(text) : null, res };
  };
  return {
    call,
    /** Sign-up, user record and access token, the client's own three steps. */
    async account(type: 'user' | 'seller'): Promise<Account> {
      const email = uniqueEmail(type);
      const name = `Crash ${type}`;
      const { res } = await call('POST', '/auth/sign-up/email', {
        email,
        name,
        password: GOOD_PASSWORD,
      });
      const cookie = res.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      await call('POST', '/users', { email, name, type }, { cookie });
      const token = await call('GET', `/jwt?email=${encodeURIComponent(email)}`, undefined, {
        cookie,
      });
      return { email, bearer: { authorization: `bearer ${token.json.accessToken}` } };
    },
    async orderOf(buyer: Account, productId: string) {
      const { json } = await call(
        'GET',
        `/order?email=${encodeURIComponent(buyer.email)}&limit=100`,
        undefined,
        buyer.bearer,
      );
      return (json as { _id: string; productId: string; status: string }[]).find(
        (o) => o.productId === productId,
      );
    },
  };
}

const api = client(() => {
  if (!server) throw new Error('no server running');
  return server;
});

async function listPhones(seller: Account): Promise<{ id: string; status: string }[]> {
  const { json } = await api.call(
    'GET',
    `/products?email=${encodeURIComponent(seller.email)}&limit=100`,
    undefined,
    seller.bearer,
  );
  return (json as { _id: string; status: string }[]).map((p) => ({ id: p._id, status: p.status }));
}

async function addPhones(seller: Account, count: number): Promise<string[]> {
  const photo = await sharp({
    create: { width: 64, height: 64, channels: 3, background: '#48c' },
  })
    .png()
    .toBuffer();
  const body = multipartFile('image', 'phone.png', photo, 'image/png');
  const res = await fetch(`${server?.url}/api/images`, {
    method: 'POST',
    headers: { origin: server?.url ?? '', ...body.headers, ...seller.bearer },
    body: body.payload,
  });
  expect(res.status).toBe(200);
  const image = ((await res.json()) as { data: { url: string } }).data.url;
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { json } = await api.call(
      'POST',
      '/products',
      {
        categoryId: '01',
        modelName: `Crash phone ${i}`,
        image,
        originalPrice: '499',
        resellPrice: PRICE,
        location: 'Austin, TX',
        description: 'Survives a crash.',
        timeUsed: '6',
        condition: 'Good',
        sellerNumber: '+1 512 555 0100',
        specificatons: { ram: '8 GB', storage: '128 GB', color: 'Black', battery: '4000' },
        imei: uniqueImei(),
      },
      seller.bearer,
    );
    ids.push(json.insertedId);
  }
  return ids;
}

/** Book a phone and (three times in four) pay for it the way the payment page does. */
async function buy(buyer: Account, productId: string, pay: boolean, ack: (a: Ack) => void) {
  await api.call('POST', '/order', { productId, location: 'Cafe', number: '1' }, buyer.bearer);
  ack({ kind: 'order', email: buyer.email, productId });
  if (!pay) return;
  const order = await api.orderOf(buyer, productId);
  if (!order) throw new Error(`the booked order of ${productId} is not listed`);
  const intent = await api.call(
    'POST',
    '/create-payment-intent',
    { price: PRICE, orderId: order._id },
    buyer.bearer,
  );
  const confirmed = await api.call('POST', '/test-payments/confirm', {
    clientSecret: intent.json.clientSecret,
    card: CARD,
    billingDetails: { name: 'Crash buyer', email: buyer.email },
  });
  const paymentIntent = confirmed.json.paymentIntent as { id: string; status: string };
  if (paymentIntent.status !== 'requires_capture')
    throw new Error(`card not charged: ${paymentIntent.status}`);
  // The processor's confirmation records the payment before it answers (our webhook stand-in).
  ack({ kind: 'paid', email: buyer.email, productId, orderId: order._id });
  const recorded = await api.call(
    'POST',
    '/payment',
    { transactionId: paymentIntent.id, orderId: order._id },
    buyer.bearer,
  );
  ack({ kind: 'payment', orderId: order._id, insertedId: recorded.json.insertedId });
}

describe('a server killed while buyers book and pay', () => {
  it('keeps every acknowledged order and payment, consistent, after a restart', {
    timeout: 180_000,
  }, async () => {
    server = await startServer({ dataDir, databaseUrl });
    const seller = await api.account('seller');
    const buyers = await Promise.all(Array.from({ length: BUYERS }, () => api.account('user')));
    const phones = await addPhones(seller, PHONES + 1);
    // One phone nobody touches before the crash, bought afterwards to show writes still work.
    const afterCrashPhone = phones.pop() as string;

    const acks: Ack[] = [];
    let inFlight = 0;
    let inFlightAtKill = 0;
    let killing: Promise<void> | undefined;
    const running = server;
    const ack = (a: Ack) => {
      acks.push(a);
      // Kill while other calls are on the wire, so some writes die half done.
      if (!killing && acks.length >= KILL_AFTER_ACKS && inFlight > 1) {
        inFlightAtKill = inFlight - 1;
        killing = running.kill();
      }
    };
    let next = 0;
    const worker = async () => {
      while (!killing && next < phones.length) {
        const i = next++;
        inFlight++;
        try {
          await buy(buyers[i % BUYERS] as Account, phones[i] as string, i % 4 !== 3, ack);
        } catch (err) {
          // After the kill, calls fail on the wire; before it, any failure is a real one.
          if (!killing) throw err;
        } finally {
          inFlight--;
        }
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, worker));
    expect(killing, 'the stream ended before the kill; add phones').toBeDefined();
    await killing;
    expect(inFlightAtKill).toBeGreaterThan(0);
    expect(acks.filter((a) => a.kind === 'payment').length).toBeGreaterThan(0);

    // Opening the database again (recovery, migrations) is part of what is proven here.
    server = await startServer({ dataDir, databaseUrl });

    for (const a of acks) {
      if (a.kind === 'payment') continue;
      const buyer = buyers.find((b) => b.email === a.email) as Account;
      const order = await api.orderOf(buyer, a.productId);
      expect(order, `acknowledged order of ${a.productId}`).toBeDefined();
      if (a.kind === 'paid') {
        expect(order?._id).toBe(a.orderId);
        const { json } = await api.call('GET', `/payment/${a.orderId}`, undefined, buyer.bearer);
        expect(json.status).toBe('paid');
      }
    }
    const phonesAfter = new Map((await listPhones(seller)).map((p) => [p.id, p.status]));
    for (const a of acks) if (a.kind === 'paid') expect(phonesAfter.get(a.productId)).toBe('sold');

    // The recovered server takes new writes: a whole purchase of the untouched phone.
    const lateBuyer = buyers[0] as Account;
    const late: Ack[] = [];
    await buy(lateBuyer, afterCrashPhone, true, (a) => late.push(a));
    expect(late.map((a) => a.kind)).toEqual(['order', 'paid', 'payment']);

    // Payment records have no read call; stop the server and read them from the database.
    await server.stop();
    server = undefined;
    const database = await openDatabase(
      databaseUrl ? { url: databaseUrl } : { dataDir: path.join(dataDir, 'db') },
    );
    try {
      const allOrders = await database.db.select().from(orders);
      const allPayments = await database.db.select().from(payments);
      const allProducts = await database.db.select().from(products);
      const orderById = new Map(allOrders.map((o) => [o.id, o]));
      const productById = new Map(allProducts.map((p) => [p.id, p]));

      for (const a of [...acks, ...late]) {
        if (a.kind !== 'payment') continue;
        const record = allPayments.find((p) => p.id === a.insertedId);
        expect(record?.orderId, `acknowledged payment ${a.insertedId}`).toBe(a.orderId);
      }
      for (const payment of allPayments) {
        const order = orderById.get(payment.orderId);
        expect(order?.status, `order of payment ${payment.id}`).toBe('paid');
        expect(payment.priceCents).toBe(order?.priceCents);
        expect(payment.productId).toBe(order?.productId);
        expect(productById.get(payment.productId)?.status).toBe('sold');
      }
      for (const order of allOrders.filter((o) => o.status === 'paid')) {
        expect(
          allPayments.filter((p) => p.orderId === order.id),
          `payments of paid order ${order.id}`,
        ).toHaveLength(1);
      }
      for (const product of allProducts.filter((p) => p.status === 'sold')) {
        expect(
          allOrders.filter((o) => o.productId === product.id && o.status === 'paid'),
          `paid orders of sold phone ${product.id}`,
        ).toHaveLength(1);
      }
    } finally {
      await database.close();
    }
  });
});

describe('a second server on the same PGlite directory', () => {
  // PostgreSQL serves many servers by design; PGlite's files belong to one process.
  it.skipIf(Boolean(inject('postgresUrl')))(
    'refuses to start while the first one runs, and starts once it was killed',
    { timeout: 120_000 },
    async () => {
      const shared = await mkdtemp(path.join(os.tmpdir(), 'phone-market-lock-'));
      const first = await startServer({ dataDir: shared });
      try {
        await expect(startServer({ dataDir: shared })).rejects.toThrow(/in use by process/);
        await first.kill();
        const second = await startServer({ dataDir: shared });
        await second.stop();
      } finally {
        await first.kill();
        await rm(shared, { recursive: true, force: true });
      }
    },
  );
});

/**
 * A money step is written as `capturing` or `releasing` in the transition's transaction, then the
 * card processor is asked, then the final state is written (src/server/payments/settle.ts). With
 * PHONE_MARKET_FAULT=exit-after-provider-step the server kills itself (SIGKILL) right after the
 * processor did the step and before our write: the processor has moved the money, our record has
 * not. Started again without the fault, the timed work must ask again (the processor answers
 * "done already") and write the final state, exactly once.
 */
describe('a server killed between the card processor moving money and its own write', () => {
  const FAULT = { PHONE_MARKET_FAULT: 'exit-after-provider-step' };

  // The database of the test above (migrated, its server stopped): a second fresh one would cost
  // a first start again. Its sales were paid, never handed over or cancelled.
  beforeAll(async () => {
    await server?.kill();
    server = undefined;
  });

  const start = async (env: Record<string, string> = {}) => {
    // The timed work runs as the server starts and then every 200 ms.
    server = await startServer({
      dataDir,
      databaseUrl,
      env: { TIMED_WORK_MS: '200', ...env },
    });
    return server;
  };

  /** Reads the database directly (the server is not running: PGlite is one process's). */
  async function inDatabase<T>(read: (db: Db) => Promise<T>): Promise<T> {
    const database = await openDatabase(
      databaseUrl ? { url: databaseUrl } : { dataDir: path.join(dataDir, 'db') },
    );
    try {
      return await read(database.db);
    } finally {
      await database.close();
    }
  }

  /** The order, its payment and the processor's intent for it, as stored. */
  async function moneyIn(db: Db, orderId: string) {
    const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
    const paid = await db.select().from(payments).where(eq(payments.orderId, orderId));
    const intents = await db
      .select()
      .from(paymentIntents)
      .where(eq(paymentIntents.orderId, orderId));
    const [product] = order
      ? await db.select().from(products).where(eq(products.id, order.productId))
      : [];
    return {
      stage: order?.stage,
      money: paid.map((p) => p.money),
      settled: paid.map((p) => p.settledAt !== null),
      intents: intents.map((i) => i.status),
      phone: product?.status,
    };
  }
  const moneyOf = (orderId: string) => inDatabase((db) => moneyIn(db, orderId));

  /** Sends a call the faulted server dies in; resolves once it has died by its own SIGKILL. */
  async function diesDuring(call: () => Promise<unknown>) {
    const running = server as ServerProcess;
    const exited =
      running.child.exitCode !== null || running.child.signalCode !== null
        ? Promise.resolve()
        : once(running.child, 'exit');
    await expect(call(), 'the server answered: the fault did not fire').rejects.toThrow();
    await Promise.race([exited, sleep(15_000)]);
    expect(running.child.signalCode, running.output().slice(-2000)).toBe('SIGKILL');
    server = undefined;
  }

  /** Reads the sale as `who` until its money is `money` (the timed work's round), or fails. */
  async function moneyBecomes(who: Account, orderId: string, money: string) {
    const deadline = Date.now() + 20_000;
    let seen: unknown;
    while (Date.now() < deadline) {
      const { json } = await api.call('GET', `/orders/${orderId}`, undefined, who.bearer);
      seen = json.money;
      if (seen === money) return json as { stage: string; money: string };
      await sleep(100);
    }
    throw new Error(`the money of ${orderId} stayed ${String(seen)}, never ${money}`);
  }

  it('captures a handover and releases a cancel exactly once after a restart', {
    timeout: 180_000,
  }, async () => {
    // The fault fires only on a money step after the payment: paying is not one.
    await start(FAULT);
    const seller = await api.account('seller');
    const buyer = await api.account('user');
    const [handedOver, cancelled] = (await addPhones(seller, 2)) as [string, string];
    const ids: Record<string, string> = {};
    for (const productId of [handedOver, cancelled]) {
      const acks: Ack[] = [];
      await buy(buyer, productId, true, (a) => acks.push(a));
      const paid = acks.find((a) => a.kind === 'payment');
      if (paid?.kind !== 'payment') throw new Error('the payment was not recorded');
      ids[productId] = paid.orderId;
    }
    const saleId = ids[handedOver] as string;
    const cancelId = ids[cancelled] as string;
    const { json: sale } = await api.call('GET', `/orders/${saleId}`, undefined, buyer.bearer);
    expect(sale).toMatchObject({ stage: 'paid', money: 'held' });
    expect(sale.handoverCode).toMatch(/^\d{6}$/);

    // The handover: the processor captures, then the server dies before writing `captured`.
    await diesDuring(() =>
      api.call('POST', `/orders/${saleId}/handover`, { code: sale.handoverCode }, seller.bearer),
    );
    expect(await moneyOf(saleId), 'right after the crash').toEqual({
      stage: 'completed',
      money: ['capturing'],
      settled: [false],
      intents: ['succeeded'],
      phone: 'sold',
    });

    // Started again without the fault: the timed work finishes the capture.
    const healing = await start();
    expect(await moneyBecomes(seller, saleId, 'captured')).toMatchObject({ stage: 'completed' });
    expect(await healing.stop()).toBe(0);
    server = undefined;

    // A cancel by the buyer: the processor releases the hold, the server dies before `released`.
    await start(FAULT);
    await diesDuring(() => api.call('POST', `/orders/${cancelId}/cancel`, {}, buyer.bearer));
    expect(await moneyOf(cancelId), 'right after the crash').toEqual({
      stage: 'cancelled',
      money: ['releasing'],
      settled: [false],
      intents: ['canceled'],
      phone: 'available',
    });

    const healingAgain = await start();
    expect(await moneyBecomes(buyer, cancelId, 'released')).toMatchObject({ stage: 'cancelled' });
    expect(await healingAgain.stop()).toBe(0);
    server = undefined;

    // Consistent, and each step done once: one payment a sale, one intent, the sums agree.
    await inDatabase(async (db) => {
      expect(await moneyIn(db, saleId)).toEqual({
        stage: 'completed',
        money: ['captured'],
        settled: [true],
        intents: ['succeeded'],
        phone: 'sold',
      });
      expect(await moneyIn(db, cancelId)).toEqual({
        stage: 'cancelled',
        money: ['released'],
        settled: [true],
        intents: ['canceled'],
        phone: 'available',
      });
      const all = await db.select().from(payments);
      const captured = all.filter((p) => p.money === 'captured');
      expect(captured.map((p) => p.orderId)).toEqual([saleId]);
      const succeeded = await db
        .select()
        .from(paymentIntents)
        .where(eq(paymentIntents.status, 'succeeded'));
      expect(succeeded.reduce((n, i) => n + i.amountCents, 0)).toBe(
        captured.reduce((n, p) => n + p.priceCents, 0),
      );
      expect(all.filter((p) => /ing$/.test(p.money))).toEqual([]);
    });
  });
  /**
   * A payout (issue 30) is written with its entries, then the processor is asked with the
   * payout's key, then its answer is booked. With PHONE_MARKET_FAULT=exit-after-payout-sent the
   * server dies right after the test bank paid: started again, the timed work asks again with the
   * same key and books it once. One transfer, one set of entries, and the ledger adds up.
   */
  it('books a payout the bank made exactly once after a restart', {
    timeout: 180_000,
  }, async () => {
    // On PostgreSQL the sign-up limits are counted in the database, across restarts: the tests
    // above used this address's share of the window.
    const quick = {
      FUNDS_HOLD_HOURS: '0',
      PAYOUT_SCHEDULE: '1s',
      SIGN_UPS_PER_ADDRESS: '1000',
      SIGN_UPS_IN_ALL: '1000',
    };
    const first = await start(quick);
    const seller = await api.account('seller');
    const buyer = await api.account('user');
    const [productId] = (await addPhones(seller, 1)) as [string];
    const acks: Ack[] = [];
    await buy(buyer, productId, true, (a) => acks.push(a));
    const paid = acks.find((a) => a.kind === 'payment');
    if (paid?.kind !== 'payment') throw new Error('the payment was not recorded');
    const { json: sale } = await api.call(
      'GET',
      `/orders/${paid.orderId}`,
      undefined,
      buyer.bearer,
    );
    await api.call(
      'POST',
      `/orders/${paid.orderId}/handover`,
      { code: sale.handoverCode },
      seller.bearer,
    );
    // Without a payout account the share waits in the balance.
    expect(await first.stop()).toBe(0);
    server = undefined;

    // With the fault, the timed work pays out as the server starts and dies right after the bank paid.
    const faulted = await start({ ...quick, PHONE_MARKET_FAULT: 'exit-after-payout-sent' });
    await api.call(
      'PUT',
      '/payouts/account',
      { routingNumber: '110000000', accountNumber: '000123456789', password: GOOD_PASSWORD },
      seller.bearer,
    );
    const exited =
      faulted.child.exitCode !== null || faulted.child.signalCode !== null
        ? Promise.resolve()
        : once(faulted.child, 'exit');
    await Promise.race([exited, sleep(30_000)]);
    expect(faulted.child.signalCode, faulted.output().slice(-2000)).toBe('SIGKILL');
    server = undefined;
    const afterCrash = await inDatabase(async (db) => ({
      payouts: (await db.select().from(payouts)).map((p) => p.status),
      bank: (await db.select().from(testBankPayouts)).length,
    }));
    expect(afterCrash, 'right after the crash').toEqual({ payouts: ['sending'], bank: 1 });

    // Started again without the fault: the payout is asked again, found paid, booked once.
    const healed = await start(quick);
    const deadline = Date.now() + 20_000;
    let summary: { paidOut?: number; payouts?: { status: string }[] } = {};
    while (Date.now() < deadline && summary.payouts?.[0]?.status !== 'paid') {
      summary = (await api.call('GET', '/payouts', undefined, seller.bearer)).json;
      await sleep(100);
    }
    expect(summary.payouts?.map((p) => p.status)).toEqual(['paid']);
    // $120.50 less its 5% fee ($6.025, half up: $6.03).
    expect(summary.paidOut).toBe(114.47);
    expect(await healed.stop()).toBe(0);
    server = undefined;
    await inDatabase(async (db) => {
      expect(await db.select().from(testBankPayouts)).toHaveLength(1);
      const [payout] = await db.select().from(payouts);
      const booked = await db
        .select({ kind: ledgerTransactions.kind })
        .from(ledgerTransactions)
        .where(eq(ledgerTransactions.sellerId, payout?.sellerId ?? ''));
      expect(booked.map((b) => b.kind).sort()).toEqual([
        'available',
        'capture',
        'payout',
        'payout-paid',
      ]);
      expect(await checkLedger(db)).toEqual([]);
    });
  });
});
