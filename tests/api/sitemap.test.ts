/**
 * /robots.txt and the sitemap: an index of files of at most SITEMAP_URLS_PER_FILE URLs (3 here,
 * to see them split), listing the public pages, every unsold phone and every seller with one,
 * at absolute URLs on PUBLIC_URL whatever the request's Host says.
 */
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products } from '../../src/server/db/schema';
import { createProduct, createSeller } from '../helpers/factories';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const ORIGIN = 'https://shop.example';
const PER_FILE = 3;
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
/** jsdom's strict XML parser (jsdom ships no types of its own). */
const { JSDOM } = createRequire(import.meta.url)('jsdom') as {
  JSDOM: new () => { window: { DOMParser: typeof DOMParser } };
};

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ PUBLIC_URL: `${ORIGIN}/`, SITEMAP_URLS_PER_FILE: String(PER_FILE) });
});
afterAll(() => t.close());

/** GETs as a crawler would, from a Host that is not ours. */
const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { host: 'evil.example', ...headers } });

type Listed = { loc: string; lastmod: string | null };

/** Parses a sitemap file strictly (a parse error fails) into its `<loc>`s and `<lastmod>`s. */
function parse(xml: string, root: 'urlset' | 'sitemapindex'): Listed[] {
  const doc = new new JSDOM().window.DOMParser().parseFromString(xml, 'application/xml');
  expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
  expect(doc.documentElement.localName).toBe(root);
  expect(doc.documentElement.namespaceURI).toBe(NS);
  const tag = root === 'urlset' ? 'url' : 'sitemap';
  return [...doc.documentElement.getElementsByTagNameNS(NS, tag)].map((e) => ({
    loc: e.getElementsByTagNameNS(NS, 'loc')[0]?.textContent ?? '',
    lastmod: e.getElementsByTagNameNS(NS, 'lastmod')[0]?.textContent ?? null,
  }));
}

async function sitemap(url: string, root: 'urlset' | 'sitemapindex'): Promise<Listed[]> {
  const res = await get(url);
  expect(res.statusCode, url).toBe(200);
  expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
  return parse(res.body, root);
}

const pathOf = (loc: string) => {
  expect(loc.startsWith(`${ORIGIN}/`), loc).toBe(true);
  return loc.slice(ORIGIN.length);
};

/** Every file the index names, read: their paths by file. */
async function readAll(): Promise<Map<string, Listed[]>> {
  const files = new Map<string, Listed[]>();
  for (const { loc } of await sitemap('/sitemap.xml', 'sitemapindex')) {
    const path = pathOf(loc);
    files.set(path, await sitemap(path, 'urlset'));
  }
  return files;
}

describe('the sitemap', () => {
  it('lists the public pages, each unsold phone and each seller with one, in files of at most 3 phones or sellers', async () => {
    const db = t.database.db;
    const seller = await createSeller(db);
    const soldOut = await createSeller(db);
    await createSeller(db, { type: 'user' });
    const unsold = [];
    for (let i = 0; i < 7; i++) {
      unsold.push(await createProduct(db, seller));
      if (i % 3 === 0) await createProduct(db, soldOut, { status: 'sold' });
    }

    const files = await readAll();
    const listed = (prefix: string) =>
      [...files.entries()].filter(([path]) => path.startsWith(prefix));
    for (const [path, urls] of files) {
      expect(urls.length, path).toBeGreaterThan(0);
      // The seven public pages are one file whatever the setting.
      if (path !== '/sitemaps/pages.xml') expect(urls.length, path).toBeLessThanOrEqual(PER_FILE);
    }

    expect(files.get('/sitemaps/pages.xml')?.map((u) => pathOf(u.loc))).toEqual([
      '/',
      '/blog',
      '/category/01',
      '/category/02',
      '/category/03',
      '/category/04',
      '/category/05',
    ]);

    // File N holds the phones whose seq is in ((N-1)·3, N·3].
    const expected = new Map<string, string[]>();
    for (const phone of unsold) {
      const file = `/sitemaps/products-${Math.ceil(phone.seq / PER_FILE)}.xml`;
      expected.set(file, [...(expected.get(file) ?? []), `/product/${phone.id}`]);
    }
    expect(
      new Map(
        listed('/sitemaps/products-').map(([path, urls]) => [path, urls.map((u) => pathOf(u.loc))]),
      ),
    ).toEqual(expected);

    expect(
      listed('/sitemaps/sellers-').flatMap(([, urls]) => urls.map((u) => pathOf(u.loc))),
    ).toEqual([`/seller/${seller.id}`]);

    const newest = unsold
      .at(-1)
      ?.createdAt.toISOString()
      .replace(/\.\d{3}Z$/, 'Z');
    const phoneUrls = listed('/sitemaps/products-').flatMap(([, urls]) => urls);
    expect(phoneUrls.at(-1)?.lastmod).toBe(newest);
    for (const url of phoneUrls) expect(url.lastmod).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('drops a phone once it is sold, and a file with nothing left in it', async () => {
    const db = t.database.db;
    const seller = await createSeller(db);
    const phones = [];
    for (let i = 0; i < 2 * PER_FILE; i++) phones.push(await createProduct(db, seller));
    // Every phone of the last file these phones fill is sold.
    const lastFile = Math.ceil((phones.at(-1)?.seq ?? 0) / PER_FILE);
    const inLastFile = phones.filter((p) => Math.ceil(p.seq / PER_FILE) === lastFile);
    await db
      .update(products)
      .set({ status: 'sold' })
      .where(inArray(products.id, [...inLastFile.map((p) => p.id)]));
    await db
      .update(products)
      .set({ status: 'sold' })
      .where(eq(products.id, phones[0]?.id ?? ''));

    const files = await readAll();
    const all = [...files.values()].flat().map((u) => pathOf(u.loc));
    expect(all).not.toContain(`/product/${phones[0]?.id}`);
    for (const phone of inLastFile) expect(all).not.toContain(`/product/${phone.id}`);
    expect(files.has(`/sitemaps/products-${lastFile}.xml`)).toBe(false);
    expect((await get(`/sitemaps/products-${lastFile}.xml`)).statusCode).toBe(404);
  });

  it('answers 404 for a file that is not one', async () => {
    for (const name of [
      'products-0.xml',
      'products-01.xml',
      'products-999999999.xml',
      'products-1e3.xml',
      'buyers-1.xml',
      'products-1.json',
      `products-${'9'.repeat(30)}.xml`,
      '..%2Fsitemap.xml',
    ]) {
      const res = await get(`/sitemaps/${name}`);
      expect(res.statusCode, name).toBe(404);
    }
  });

  it('comes gzipped to a crawler that takes it', async () => {
    const plain = await get('/sitemaps/pages.xml');
    const zipped = await get('/sitemaps/pages.xml', { 'accept-encoding': 'gzip, deflate' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(plain.body);
    expect(plain.headers['content-encoding']).toBeUndefined();
  });
});

describe('/robots.txt', () => {
  it('lets crawlers in but for the dashboard and the API, and names the sitemap', async () => {
    const res = await get('/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe(
      [
        'User-agent: *',
        'Allow: /',
        'Disallow: /dashboard',
        'Disallow: /api',
        '',
        `Sitemap: ${ORIGIN}/sitemap.xml`,
        '',
      ].join('\n'),
    );
  });

  it('names the sitemap on http://localhost:PORT when no PUBLIC_URL is set', async () => {
    const local = await buildTestApp({ PORT: '4321' });
    try {
      const res = await local.app.inject({ url: '/robots.txt', headers: { host: 'evil.example' } });
      expect(res.body).toContain('Sitemap: http://localhost:4321/sitemap.xml\n');
    } finally {
      await local.close();
    }
  });
});
