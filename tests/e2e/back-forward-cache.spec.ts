/**
 * Every public page is kept in the back/forward cache (issue 36): going back shows it at once,
 * as it was, for a visitor and for someone signed in (whose page has the live stream open).
 * Playwright turns the cache off by default; this file's browser has it on.
 */
import { type CDPSession, expect, type Page, test } from '@playwright/test';
import { createAccountViaApi } from './api';
import { findChromium } from './chromium';
import { FIXTURE } from './fixture';
import { signedIn } from './signed-in';

test.use({
  launchOptions: {
    executablePath: findChromium(),
    ignoreDefaultArgs: ['--disable-back-forward-cache'],
  },
});

/** Counts the page's restorations from the cache, kept across documents of the tab. */
const COUNT_RESTORES = `addEventListener('pageshow', (e) => {
  if (e.persisted) sessionStorage.setItem('restored', String(Number(sessionStorage.getItem('restored') ?? 0) + 1));
});`;

async function watched(page: Page): Promise<{ reasons: () => string[]; cdp: CDPSession }> {
  await page.addInitScript(COUNT_RESTORES);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Page.enable');
  let reasons: string[] = [];
  cdp.on('Page.backForwardCacheNotUsed', (e) => {
    reasons = e.notRestoredExplanations.map((r) => r.reason);
  });
  return { reasons: () => reasons, cdp };
}

/** Goes back to `path`: restored from the cache once, or the reasons Chromium gives why not. */
async function goBackFromCache(page: Page, path: string, reasons: () => string[]) {
  await page.goBack({ waitUntil: 'commit' });
  await expect
    .poll(
      async () => ({
        // A page not restored loads again: asked while it does, it answers on the next poll.
        restored: await page
          .evaluate(() => sessionStorage.getItem('restored'))
          .catch(() => 'still loading'),
        reasons: reasons(),
      }),
      { message: `going back to ${path}` },
    )
    .toEqual({ restored: '1', reasons: [] });
}

/** Leaves `path` for another document and comes back: restored from the cache, or why not. */
async function expectRestored(page: Page, path: string, reasons: () => string[]) {
  await page.goto(path);
  await expect(page.getByRole('main')).toBeVisible();
  await page.evaluate(() => sessionStorage.removeItem('restored'));
  // Another document of the site, not a move within the app.
  await page.goto(path === '/blog' ? '/signin' : '/blog');
  await goBackFromCache(page, path, reasons);
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[/?]/g, '\\$&')}$`));
}

const featuredPath = async (page: Page) => {
  const res = await page.request.get(
    `/api/search?q=${encodeURIComponent(FIXTURE.featured.modelName)}`,
  );
  const { products } = (await res.json()) as { products: { _id: string }[] };
  return `/product/${products[0]?._id}`;
};

test('every public page is kept for going back to it, for a visitor', async ({ page }) => {
  const { reasons } = await watched(page);
  for (const path of [
    '/',
    '/category/01',
    '/search?q=iphone',
    '/blog',
    '/signin',
    await featuredPath(page),
  ]) {
    await expectRestored(page, path, reasons);
  }
});

test('a page left before its code has loaded is kept too', async ({ page }) => {
  const { reasons } = await watched(page);
  // The sign-in page's route code is held until the visitor has gone on to the blog.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/sign-in-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/signin');
  await expect(page.getByRole('main')).toBeVisible();
  await expect(page.locator('html[data-hydrated]')).toHaveCount(0);
  // The history entry is numbered already (decision 069): React Router, starting later, has no
  // same-document navigation left to make, which would evict the page on its way into the cache.
  expect(await page.evaluate(() => history.state)).toEqual({ idx: 0 });
  await page.evaluate(() => sessionStorage.removeItem('restored'));
  await page.goto('/blog');
  release();
  await goBackFromCache(page, '/signin', reasons);
  // Back on it, the page's code loads and it comes alive.
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
});

test('a signed-in person’s pages are kept too, their live stream open again after', async ({
  browser,
  baseURL,
}) => {
  const buyer = await createAccountViaApi(baseURL as string, 'user', 'bfcachebuyer');
  const page = await signedIn(browser, buyer.email, '/');
  const { reasons } = await watched(page);
  for (const path of ['/', await featuredPath(page), '/dashboard']) {
    await expectRestored(page, path, reasons);
  }
  // Back on the page, its live stream is open again: a request to /api/events goes out.
  await page.goto('/');
  await expect(page.getByRole('main')).toBeVisible();
  await page.goto('/blog');
  const reopened = page.waitForRequest((r) => r.url().includes('/api/events'));
  await page.goBack({ waitUntil: 'commit' });
  await reopened;
});
