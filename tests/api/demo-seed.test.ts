import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exercisedChecks, reconcile } from '../../scripts/lib/soak-reconcile';
import { uploadsDirOf } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { users } from '../../src/server/db/schema';
import { LocalImageStore } from '../../src/server/images/image-store';
import { checkLedger } from '../../src/server/ledger/check';
import { sellerBalances } from '../../src/server/ledger/ledger';
import { bookEarlierSales } from '../../src/server/ledger/opening';
import { EmbeddedPaymentProvider } from '../../src/server/payments/embedded-processor';
import {
  DEMO_ADMIN,
  DEMO_BUYER,
  DEMO_SELLERS,
  hasAnyUser,
  seedDemo,
} from '../../src/server/seed/demo';
import { cookieOf, signIn, tokenFor } from '../helpers/accounts';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const PASSWORD = 'Demo-Pass1!';
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  expect(await hasAnyUser(t.database.db)).toBe(false);
  const uploads = uploadsDirOf(loadConfig({ DATA_DIR: t.dataDir }));
  const images = new LocalImageStore(uploads, { allowSvg: true });
  await seedDemo(t.database.db, images, t.app.identity, t.app.imeiVault, PASSWORD);
  // As the server's start does after seeding (issue 30).
  await bookEarlierSales(t.database.db);
});
afterAll(() => t.close());

const all = async (url: string) => (await t.app.inject(url)).json();

type Phone = {
  _id: string;
  status: string;
  modelName: string;
  imeiChecked: boolean;
  batteryHealth: number | null;
  priceNote: 'good' | 'high' | null;
};
async function everyPhone(): Promise<Phone[]> {
  const phones: Phone[] = [];
  for (const code of ['01', '02', '03', '04', '05'])
    phones.push(...(await all(`/api/category/${code}?limit=100`)));
  return phones;
}

describe('demo data', () => {
  it('fills every brand with phones, some sold, from sellers of whom one is verified', async () => {
    const phones = [];
    for (const code of ['01', '02', '03', '04', '05']) {
      const page = await all(`/api/category/${code}?limit=100`);
      expect(page.length, code).toBeGreaterThan(0);
      phones.push(...page);
    }
    expect(phones.length).toBeGreaterThanOrEqual(35);
    expect(phones.filter((p) => p.status === 'sold').length).toBeGreaterThanOrEqual(3);
    // Public answers name the seller, never their address (issue 29).
    const verified = new Set(
      phones.filter((p) => p.userStatus === 'verified').map((p) => p.sellerName),
    );
    expect([...verified]).toEqual(DEMO_SELLERS.filter((s) => s.verified).map((s) => s.name));
    expect(await hasAnyUser(t.database.db)).toBe(true);
  });

  it('advertises five unsold phones', async () => {
    const ads = await all('/api/advertise');
    expect(ads).toHaveLength(5);
  });

  it("serves each phone's locally made photo in every width", async () => {
    const [phone] = await all('/api/category/01?limit=1');
    for (const width of [320, 640, 960]) {
      const res = await t.app.inject(phone.image.replace('-640.webp', `-${width}.webp`));
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.subarray(8, 12).toString()).toBe('WEBP');
    }
  });

  it('creates demo accounts that sign in with the demo password, with their roles', async () => {
    for (const account of [DEMO_ADMIN, DEMO_BUYER, ...DEMO_SELLERS]) {
      const res = await signIn(t.app, account.email, PASSWORD);
      expect(res.statusCode, account.email).toBe(200);
    }
    expect((await all(`/api/users/admin/${DEMO_ADMIN.email}`)).isAdmin).toBe(true);
    expect((await all(`/api/users/seller/${DEMO_SELLERS[0].email}`)).isSeller).toBe(true);
    expect((await all(`/api/users/seller/${DEMO_BUYER.email}`)).isSeller).toBe(false);
  });

  it('lists every phone with a checked IMEI, and most with their battery health', async () => {
    const phones = await everyPhone();
    expect(phones.every((p) => p.imeiChecked)).toBe(true);
    const stated = phones.filter((p) => p.batteryHealth !== null);
    expect(stated.length / phones.length).toBeGreaterThan(0.75);
    for (const p of stated) expect(p.batteryHealth).toBeGreaterThanOrEqual(50);
    for (const p of stated) expect(p.batteryHealth).toBeLessThanOrEqual(100);
    // The IMEIs are distinct: a seller's list of the demo shows each whole.
    const seller = DEMO_SELLERS[0].email;
    const signedIn = await signIn(t.app, seller, PASSWORD);
    const token = await tokenFor(t.app, cookieOf(signedIn), seller);
    const mine = (
      await t.app.inject({
        url: `/api/products?email=${seller}&limit=100`,
        headers: { authorization: `bearer ${token}` },
      })
    ).json() as { imei: string | null }[];
    const imeis = mine.map((p) => p.imei);
    expect(imeis.every((i) => i !== null && /^\d{15}$/.test(i))).toBe(true);
    expect(new Set(imeis).size).toBe(imeis.length);
  });

  it('shows "Good price" on several phones for sale and "High price" on one', async () => {
    const phones = await everyPhone();
    const good = phones.filter((p) => p.priceNote === 'good');
    const high = phones.filter((p) => p.priceNote === 'high');
    expect(good.length).toBeGreaterThanOrEqual(3);
    expect(high.length).toBeGreaterThanOrEqual(1);
    expect([...good, ...high].every((p) => p.status === 'available')).toBe(true);
    expect(high.map((p) => p.modelName)).toContain('Galaxy S22');
  });

  it("answers a seller's price guide from the demo's completed sales", async () => {
    const seller = DEMO_SELLERS[1].email;
    const signedIn = await signIn(t.app, seller, PASSWORD);
    const token = await tokenFor(t.app, cookieOf(signedIn), seller);
    const guide = async (query: string) =>
      (
        await t.app.inject({
          url: `/api/price-guide?${query}`,
          headers: { authorization: `bearer ${token}` },
        })
      ).json();
    expect(await guide('modelName=iphone%2014&storage=128%20GB&condition=Good')).toMatchObject({
      basis: 'model-storage-condition',
      count: 5,
      median: 559,
    });
    const all = await guide('modelName=Galaxy%20S22&storage=128%20GB');
    expect(all).toMatchObject({ basis: 'model-storage', count: 6, median: 337 });
    expect(all.prices).toHaveLength(6);
  });

  it('draws a year of the iPhone 13’s prices on its page, and calls its $449 low', async () => {
    const res = await t.app.inject(
      '/api/price-guide/history?modelName=iPhone%2013&storage=128%20GB&condition=Good&price=449',
    );
    expect(res.statusCode, res.body).toBe(200);
    const history = res.json();
    // The older sales' nine weeks; the last 90 days' single sales a week are not drawn.
    expect(history.points).toHaveLength(9);
    expect(history.count).toBe(27);
    expect(history).toMatchObject({
      typical: { basis: 'model-storage', median: 474 },
      verdict: 'low',
    });
  });

  it("writes its sales as the sale process does: the soak's reconciliation finds nothing wrong", async () => {
    const sold = (await everyPhone()).filter((p) => p.status === 'sold').map((p) => p._id);
    const ledger = { acknowledged: [], released: [], sales: [] };
    const reconciled = await reconcile(t.database.db, {
      runId: 'demo',
      ledger,
      soldBefore: new Set(sold),
      holdsDueBefore: new Date(),
      // The sellers' money too (issue 30): the ledger check against the processor's intents.
      provider: new EmbeddedPaymentProvider(t.database.db),
      fundsDueBefore: new Date(),
    });
    const { checks, totals } = reconciled;
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(checks.map((c) => c.name)).toEqual(
      expect.arrayContaining([
        "the ledger check (npm run ledger:check, each payment against the processor's intent) finds nothing",
        "every completed sale's share is paid out (one payout, its net) or the seller's (pending, frozen, available)",
      ]),
    );
    // The demo's past sales: captured with their fee, every share available (no payout account).
    expect(totals.sellerMoney.feesCents).toBeGreaterThan(0);
    expect(totals.sellerMoney.completedShares.available).toBe(totals.stages.completed);
    // A run that exercised none of the money paths fails, and says which it lacks.
    const [exercised] = await exercisedChecks(t.database.db, {
      ledger,
      totals,
      expiries: true,
      disputes: true,
      payouts: true,
    });
    expect(exercised?.ok).toBe(false);
    expect(exercised?.detail).toMatch(/none: sales completed, .*payouts paid, payouts failed/);
  });
});

describe('the demo’s money', () => {
  it('is in the ledger: past sales captured with their fee, the sellers’ shares theirs to pay out', async () => {
    expect(await checkLedger(t.database.db)).toEqual([]);
    const seller = (
      await t.database.db
        .select()
        .from(users)
        .where(eq(users.email, DEMO_SELLERS[0]?.email ?? ''))
    )[0];
    const balances = await sellerBalances(t.database.db, seller?.id ?? '');
    expect(balances.available).toBeGreaterThan(0);
    expect(balances.pending).toBe(0);
    // Booked once: a second start books nothing.
    expect(await bookEarlierSales(t.database.db)).toBe(0);
  });
});
