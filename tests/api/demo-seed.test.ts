import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadsDirOf } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { LocalImageStore } from '../../src/server/images/image-store';
import {
  DEMO_ADMIN,
  DEMO_BUYER,
  DEMO_SELLERS,
  hasAnyUser,
  seedDemo,
} from '../../src/server/seed/demo';
import { signIn } from '../helpers/accounts';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const PASSWORD = 'Demo-Pass1!';
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  expect(await hasAnyUser(t.database.db)).toBe(false);
  const uploads = uploadsDirOf(loadConfig({ DATA_DIR: t.dataDir }));
  const images = new LocalImageStore(uploads, { allowSvg: true });
  await seedDemo(t.database.db, images, t.app.identity, PASSWORD);
});
afterAll(() => t.close());

const all = async (url: string) => (await t.app.inject(url)).json();

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
    const verified = new Set(phones.filter((p) => p.userStatus === 'verified').map((p) => p.email));
    expect([...verified]).toEqual(DEMO_SELLERS.filter((s) => s.verified).map((s) => s.email));
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
});
