import { describe, expect, it } from 'vitest';
import { escapeXml, sitemapIndexXml, urlsetXml } from './sitemaps';

describe('sitemap XML', () => {
  it('escapes the five characters XML reserves', () => {
    expect(escapeXml(`a&b<c>d"e'f`)).toBe('a&amp;b&lt;c&gt;d&quot;e&apos;f');
    expect(escapeXml('&amp;')).toBe('&amp;amp;');
  });

  it('writes each URL escaped, with its lastmod to the second when known', () => {
    const xml = urlsetXml([
      { loc: 'https://shop.example/?a=1&b=<2>', lastmod: new Date('2026-11-02T09:30:00.123Z') },
      { loc: 'https://shop.example/blog' },
    ]);
    expect(xml).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        '<url><loc>https://shop.example/?a=1&amp;b=&lt;2&gt;</loc><lastmod>2026-11-02T09:30:00Z</lastmod></url>',
        '<url><loc>https://shop.example/blog</loc></url>',
        '</urlset>',
        '',
      ].join('\n'),
    );
  });

  it('writes an index of files', () => {
    expect(sitemapIndexXml([{ loc: 'https://shop.example/sitemaps/pages.xml' }])).toContain(
      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<sitemap><loc>https://shop.example/sitemaps/pages.xml</loc></sitemap>\n</sitemapindex>',
    );
  });
});
