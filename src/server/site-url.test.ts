import { describe, expect, it } from 'vitest';
import { mailLinkLines, siteUrlOf } from './site-url';

describe('the address mail links name (issue 31)', () => {
  it('is PUBLIC_URL, without a trailing slash, when it is set', () => {
    expect(siteUrlOf({ PUBLIC_URL: 'https://shop.example/', PORT: 3000 })).toBe(
      'https://shop.example',
    );
    expect(mailLinkLines({ PUBLIC_URL: 'https://shop.example', PORT: 3000 })).toEqual([
      '  mail links: https://shop.example (PUBLIC_URL)',
    ]);
  });

  it('is the loopback address without it, and the start banner says how to set PUBLIC_URL', () => {
    expect(siteUrlOf({ PUBLIC_URL: undefined, PORT: 4100 })).toBe('http://localhost:4100');
    const lines = mailLinkLines({ PUBLIC_URL: undefined, PORT: 4100 }).join('\n');
    expect(lines).toContain('mail links: http://localhost:4100 (PUBLIC_URL is not set)');
    expect(lines).toContain('They open only on this machine');
    expect(lines).toMatch(/set PUBLIC_URL to the\s+address they use, e\.g\. PUBLIC_URL=https:/);
  });
});
