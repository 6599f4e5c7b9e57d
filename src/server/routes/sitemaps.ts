/**
 * For search engines: /robots.txt and the sitemap. /sitemap.xml is a sitemap index (a single
 * file would break the protocol's 50,000 URLs at scale) naming /sitemaps/pages.xml (home, blog,
 * brands), /sitemaps/products-N.xml (unsold phones) and /sitemaps/sellers-N.xml (sellers with a
 * phone for sale), each of at most SITEMAP_URLS_PER_FILE URLs (repositories/sitemap.ts).
 * URLs are absolute on PUBLIC_URL (or http://localhost:PORT), never on a request's Host header.
 */
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CATEGORY_CODES } from '../../shared/constants';
import { DomainError } from '../domain/domain-error';
import { escapeXml } from '../markup';
import { acceptedEncodings } from '../plugins/client';
import {
  brandsLastmod,
  productEntries,
  productFiles,
  type SitemapEntry,
  sellerEntries,
  sellerFiles,
} from '../repositories/sitemap';

export { escapeXml } from '../markup';

/** W3C Datetime, to the second. */
const w3cDate = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

type Entry = { loc: string; lastmod?: Date | null };

const entryXml = (tag: 'url' | 'sitemap', { loc, lastmod }: Entry) =>
  `<${tag}><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${w3cDate(lastmod)}</lastmod>` : ''}</${tag}>`;

const XMLNS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

export const urlsetXml = (entries: Entry[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${XMLNS}">\n${entries.map((e) => entryXml('url', e)).join('\n')}\n</urlset>\n`;

export const sitemapIndexXml = (entries: Entry[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${XMLNS}">\n${entries.map((e) => entryXml('sitemap', e)).join('\n')}\n</sitemapindex>\n`;

/** `products-3.xml`: the kind and the file's number (1 to 999,999,999). */
const FILE_NAME = /^(products|sellers)-([1-9]\d{0,8})\.xml$/;

const gzipped = promisify(gzip);

/** Crawlers read sitemaps rarely; a file of 50,000 URLs takes a range scan and some 6 MB of text. */
const perAddress = { rateLimit: { max: 60, timeWindow: '1 minute' } };

export default async function sitemapRoutes(app: FastifyInstance) {
  const base = app.config.PUBLIC_URL ?? `http://localhost:${app.config.PORT}`;
  const absolute = (path: string) => new URL(path, base).href;
  const size = app.config.SITEMAP_URLS_PER_FILE;

  const robots = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /dashboard',
    'Disallow: /api',
    '',
    `Sitemap: ${absolute('/sitemap.xml')}`,
    '',
  ].join('\n');

  app.get('/robots.txt', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(robots),
  );

  /** Sends XML, gzipped for a client that takes it (every crawler does). */
  const sendXml = async (request: FastifyRequest, reply: FastifyReply, xml: string) => {
    reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .header('vary', 'accept-encoding');
    if (!acceptedEncodings(request.headers['accept-encoding']).has('gzip')) return reply.send(xml);
    return reply.header('content-encoding', 'gzip').send(await gzipped(xml));
  };

  app.get(
    '/sitemap.xml',
    { schema: { hide: true }, config: perAddress },
    async (request, reply) => {
      // Shared and kept like the public lists (decision 015): the index is small, finding its
      // files is a few index probes per file.
      const { body } = await app.publicAnswers.get('sitemap.xml', async () => {
        const [phones, sellers] = await Promise.all([
          productFiles(app.db, size),
          sellerFiles(app.db, size),
        ]);
        const files: Entry[] = [
          { loc: absolute('/sitemaps/pages.xml') },
          ...phones.map((f) => ({ loc: absolute(`/sitemaps/products-${f.file}.xml`), ...f })),
          ...sellers.map((f) => ({ loc: absolute(`/sitemaps/sellers-${f.file}.xml`), ...f })),
        ];
        return { body: sitemapIndexXml(files), nextCursor: null };
      });
      return sendXml(request, reply, body);
    },
  );

  app.get('/sitemaps/pages.xml', { schema: { hide: true } }, async (request, reply) => {
    const brands = await brandsLastmod(app.db);
    const newest = brands
      .map((b) => b.lastmod)
      .reduce<Date | null>((a, b) => (a && (!b || a > b) ? a : b), null);
    const entries: Entry[] = [
      { loc: absolute('/'), lastmod: newest },
      { loc: absolute('/blog') },
      ...CATEGORY_CODES.map((code) => ({
        loc: absolute(`/category/${code}`),
        lastmod: brands.find((b) => b.categoryId === code)?.lastmod,
      })),
    ];
    return sendXml(request, reply, urlsetXml(entries));
  });

  app.get(
    '/sitemaps/:file',
    { schema: { hide: true }, config: perAddress },
    async (request, reply) => {
      const match = FILE_NAME.exec((request.params as { file: string }).file);
      if (!match) throw DomainError.notFound('No such sitemap');
      const [, kind, number] = match;
      const file = Number(number);
      const [read, path]: [typeof productEntries, string] =
        kind === 'products' ? [productEntries, '/product/'] : [sellerEntries, '/seller/'];
      const entries: SitemapEntry[] = await read(app.db, file, size);
      // A file of nothing is not a sitemap: the index no longer names it.
      if (entries.length === 0) throw DomainError.notFound('No such sitemap');
      return sendXml(
        request,
        reply,
        urlsetXml(entries.map((e) => ({ loc: absolute(`${path}${e.id}`), lastmod: e.lastmod }))),
      );
    },
  );
}
