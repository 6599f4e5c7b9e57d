import { describe, expect, it } from 'vitest';
import { headHtml } from './page-head';

describe('headHtml', () => {
  it('makes JSON-LD absolute on the site address when given as a function, and keeps it inert', () => {
    const html = headHtml(
      {
        title: 'Pixel </script>',
        path: '/product/1',
        image: '/images/a-640.webp',
        type: 'product',
        jsonLd: (absolute) => ({
          name: 'Pixel </script><script>x()</script>',
          url: absolute('/product/1'),
        }),
      },
      'https://shop.example',
    );
    expect(html).toContain('<link rel="canonical" href="https://shop.example/product/1" />');
    expect(html).toContain(
      '<meta property="og:image" content="https://shop.example/images/a-640.webp" />',
    );
    expect(html).toContain('<meta property="og:type" content="product" />');
    const json = /<script type="application\/ld\+json">(.*)<\/script>/.exec(html)?.[1] ?? '';
    expect(json).not.toContain('<');
    expect(JSON.parse(json)).toEqual({
      name: 'Pixel </script><script>x()</script>',
      url: 'https://shop.example/product/1',
    });
  });

  it('keeps a page out of search engines when asked', () => {
    expect(headHtml({ title: 'Sold', noindex: true }, 'https://shop.example')).toContain(
      '<meta name="robots" content="noindex" />',
    );
  });
});
