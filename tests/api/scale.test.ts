import { afterAll, beforeAll, expect, it } from 'vitest';
import { products } from '../../src/server/db/schema';
import { PAGE_LIMIT_DEFAULT } from '../../src/shared/constants';
import { nextLink } from '../../src/shared/pagination';
import { createSeller, productValues } from '../helpers/factories';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const COUNT = 5_000;
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
  const seller = await createSeller(t.database.db);
  for (let start = 0; start < COUNT; start += 1_000) {
    const batch = Array.from({ length: 1_000 }, (_, i) =>
      productValues(seller, { categoryId: '01', modelName: `Phone ${start + i}` }),
    );
    await t.database.db.insert(products).values(batch);
  }
});
afterAll(() => t.close());

it('returns at most `limit` of 5,000 products per page with a working next link', async () => {
  const first = await t.app.inject('/api/category/01');
  expect(first.statusCode).toBe(200);
  expect(first.json()).toHaveLength(PAGE_LIMIT_DEFAULT);
  expect(first.json()[0].modelName).toBe(`Phone ${COUNT - 1}`);

  const next = nextLink(first.headers.link as string);
  expect(next).toMatch(/^\/api\/category\/01\?cursor=\d+$/);
  const second = await t.app.inject(next as string);
  expect(second.json()).toHaveLength(PAGE_LIMIT_DEFAULT);
  expect(second.json()[0].modelName).toBe(`Phone ${COUNT - 1 - PAGE_LIMIT_DEFAULT}`);
});

it('walks all 5,000 products at the largest page size without a duplicate or a gap', async () => {
  const names = new Set<string>();
  let url: string | null = '/api/category/01?limit=100';
  while (url) {
    const res = await t.app.inject(url);
    const page = res.json();
    expect(page.length).toBeLessThanOrEqual(100);
    for (const p of page) names.add(p.modelName);
    url = nextLink(res.headers.link as string | undefined);
  }
  expect(names.size).toBe(COUNT);
});
