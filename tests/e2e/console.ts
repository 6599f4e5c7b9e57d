/**
 * Every page test fails on a console error or an uncaught exception from our own pages.
 * A test that provokes a refused request on purpose says so with `consoleErrors.allow(...)`.
 */
import { test as base, expect } from '@playwright/test';

type ConsoleErrors = { allow: (pattern: RegExp) => void };

export const test = base.extend<{ consoleErrors: ConsoleErrors }>({
  consoleErrors: [
    async ({ page, baseURL }, use) => {
      const errors: string[] = [];
      const allowed: RegExp[] = [];
      const ours = (url: string) => !url || (baseURL !== undefined && url.startsWith(baseURL));
      page.on('console', (m) => {
        if (m.type() === 'error' && ours(page.url()) && ours(m.location().url))
          errors.push(m.text());
      });
      page.on('pageerror', (e) => {
        if (ours(page.url())) errors.push(e.message);
      });
      await use({ allow: (pattern) => allowed.push(pattern) });
      const unexpected = errors.filter((e) => !allowed.some((p) => p.test(e)));
      expect(unexpected, 'errors in the browser console').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
