/**
 * What sells (issue 35): a buyer in a browser of their own and a visitor in another open a
 * seller's phone page, each view counted as the server serves the page; the seller, who opened
 * it too, sees two views on My Products (never their own), and the What sells section with its
 * chart and tables. axe finds nothing serious or critical on it, in the light and the dark
 * theme. Headless Chromium says "HeadlessChrome", which the server takes for a robot (decision
 * 055): these browsers say what a person's would.
 */
import type { Browser, Page } from '@playwright/test';
import { createAccountViaApi, createSellerWithPhone, productIdOf } from './api';
import { seriousFindings } from './axe';
import { expect, test } from './console';
import { signedIn } from './signed-in';

const PERSON =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/**
 * Opens a phone's page: the server counts the view as it serves the page (decision 055's
 * addendum), so the page's own answer is what proves it; there is nothing else to wait for.
 */
async function viewPhone(page: Page, productId: string) {
  const served = await page.goto(`/product/${productId}`);
  expect(served?.status()).toBe(200);
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
}

const personContext = (browser: Browser) => browser.newContext({ userAgent: PERSON });

test('a seller sees the views buyers made of their phone, and what sells', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const model = `Oppo Seen${Date.now().toString(36)}`;
  const seller = await createSellerWithPhone(baseURL as string, '04', model);
  const productId = await productIdOf(seller, model);
  const buyer = await createAccountViaApi(baseURL as string, 'user', 'viewer');

  // A signed-in buyer, twice in a day: one view.
  const buyerPage = await signedIn(browser, buyer.email, '/', undefined, PERSON);
  await viewPhone(buyerPage, productId);
  await viewPhone(buyerPage, productId);
  // A visitor in a browser of their own: another.
  const visitor = await (await personContext(browser)).newPage();
  await viewPhone(visitor, productId);

  // The seller opens their own phone too: not counted.
  const sellerPage = await signedIn(
    browser,
    seller.email,
    `/product/${productId}`,
    undefined,
    PERSON,
  );
  // Signed in, the app goes there itself: the phone page's call for its phone carries the
  // seller's token, and the seller is left out.
  await expect(sellerPage.locator('html[data-hydrated]')).toHaveCount(1);

  // Views are written in batches every few seconds: the count shows on a later visit.
  await expect(async () => {
    await sellerPage.goto('/dashboard/myproducts');
    const figures = sellerPage.getByRole('list', { name: 'Interest' }).first();
    await expect(figures).toContainText('2 views', { timeout: 2000 });
  }).toPass({ timeout: 30_000 });
  const figures = sellerPage.getByRole('list', { name: 'Interest' }).first();
  await expect(figures).toContainText('0 bookings');
  const section = sellerPage.getByRole('region', { name: 'What sells' });
  await expect(section.getByRole('rowheader', { name: model })).toBeVisible();
  await expect(
    section.getByRole('img', { name: /Chart of your views and sales by week/ }),
  ).toHaveAttribute('aria-label', /2 views and 0 sales in all/);
  await section.getByText('Views and sales by week as a table').click();
  expect(await seriousFindings(sellerPage, 'My Products with what sells')).toEqual([]);

  // At a phone's width the listing's figures are in its card.
  await sellerPage.setViewportSize({ width: 360, height: 780 });
  await expect(sellerPage.getByRole('list', { name: 'Interest' }).first()).toBeVisible();
  expect(await seriousFindings(sellerPage, 'My Products on a phone')).toEqual([]);
});
