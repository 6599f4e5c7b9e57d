import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { headHtml, PageHead, SITE_DESCRIPTION } from './page-head';

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

describe('PageHead in the browser', () => {
  const pageTags = () =>
    [
      ...document.head.querySelectorAll(
        'link[rel="canonical"], meta[property^="og:"], meta[name="robots"], script[type="application/ld+json"]',
      ),
    ].map((el) => el.outerHTML);

  it("puts the page's own tags in the head, and the next page's in their place", () => {
    document.head.innerHTML = '<meta name="description" content="shell" />';
    const { rerender, unmount } = render(
      <PageHead
        title="Pixel 9"
        description="A phone"
        path="/product/1"
        type="product"
        jsonLd={{ name: 'Pixel 9' }}
      />,
    );
    expect(document.title).toBe('Pixel 9 · Phone Market');
    expect(pageTags().join('\n')).toContain(`href="${window.location.origin}/product/1"`);
    expect(pageTags().some((t) => t.includes('application/ld+json'))).toBe(true);

    // Another phone: its canonical URL, not the first's.
    rerender(<PageHead title="Pixel 8" path="/product/2" noindex />);
    const second = pageTags().join('\n');
    expect(second).toContain('/product/2');
    expect(second).not.toContain('/product/1');
    expect(second).toContain('noindex');
    expect(second).not.toContain('application/ld+json');
    expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).toBe(
      SITE_DESCRIPTION,
    );

    // A page with nothing to index (the blog, a seller's dashboard): none of a phone's tags stay.
    rerender(<PageHead title="Blog" />);
    expect(pageTags()).toEqual([]);
    unmount();
  });
});
