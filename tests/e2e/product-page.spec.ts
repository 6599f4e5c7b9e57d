/**
 * A phone's page and its seller's page (issue 18): reached from a brand page's card, on a phone's
 * screen and a laptop's, hydrated without errors (the console fixture fails on any), with a
 * gallery that switches photos by pointer and keyboard, and back again through history.
 */
import type { Page } from '@playwright/test';
import { API_PASSWORD, createAccountViaApi, createSellerWithPhone, productIdOf } from './api';
import { expect, test } from './console';
import { FIXTURE } from './fixture';
import { ofThePhone } from './phone-page';

const f = FIXTURE.featured;

/** The sum of the page's layout shifts so far (CLS without its windows: an upper bound). */
const layoutShift = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries())
            total += (entry as unknown as { value: number }).value;
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(total), 300);
      }),
  );

const hydrated = (page: Page) => expect(page.locator('html')).toHaveAttribute('data-hydrated', '');

for (const [screen, viewport] of [
  ['a phone', { width: 375, height: 812 }],
  ['a laptop', { width: 1366, height: 900 }],
] as const) {
  test.describe(`on ${screen}`, () => {
    test.use({ viewport });

    test("a card's title leads to the phone's page, its seller's page, and back", async ({
      page,
    }) => {
      await page.goto('/category/01');
      await hydrated(page);
      const card = page.getByRole('article', { name: f.modelName });
      await card.getByRole('heading', { name: f.modelName }).getByRole('link').click();

      await expect(page).toHaveURL(/\/product\/[0-9a-f-]{36}$/);
      const productUrl = page.url();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(f.modelName);
      await expect(page).toHaveTitle(`${f.modelName}, 1 TB, Good · Phone Market`);
      const main = page.getByRole('main');
      for (const text of [
        f.description,
        f.ram,
        '1 TB',
        f.color,
        `${f.battery} mAh`,
        `Resale price $${f.resellPrice.toLocaleString('en-US')}`,
        `Original price, new: $${f.originalPrice.toLocaleString('en-US')}`,
        f.location,
        `${f.timeUsed} months`,
        'Oct 5, 2026',
        'Unsold',
      ]) {
        await expect(main.getByText(text, { exact: true }).first()).toBeVisible();
      }
      await expect(main.getByRole('button', { name: 'Add to Wish List' })).toBeEnabled();
      await expect(main.getByRole('button', { name: 'Book Now' })).toBeEnabled();

      // The gallery: the cover, then another photo by its thumbnail, then by the arrow keys.
      const gallery = page.getByRole('region', { name: 'Photos' });
      const photo = gallery.getByRole('img', { name: new RegExp(`^${f.modelName} in ${f.color}`) });
      await expect(photo).toHaveAccessibleName(`${f.modelName} in ${f.color}, photo 1 of 3`);
      const cover = await photo.getAttribute('src');
      await gallery.getByRole('button', { name: 'Show photo 2 of 3' }).click();
      await expect(photo).toHaveAccessibleName(`${f.modelName} in ${f.color}, photo 2 of 3`);
      expect(await photo.getAttribute('src')).not.toBe(cover);
      await expect
        .poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0);
      await page.keyboard.press('ArrowRight');
      await expect(photo).toHaveAccessibleName(`${f.modelName} in ${f.color}, photo 3 of 3`);
      await expect(gallery.getByRole('button', { name: 'Show photo 3 of 3' })).toBeFocused();
      await gallery.getByRole('button', { name: 'Next photo' }).click();
      await expect(photo).toHaveAttribute('src', cover ?? '');

      // The seller, with their other phone.
      const seller = page.getByRole('region', { name: 'About the seller' });
      await expect(seller.getByTitle('Verified seller')).toBeVisible();
      await expect(seller.getByText('No ratings yet')).toBeVisible();
      await expect(
        seller.getByRole('link', { name: new RegExp(FIXTURE.samsung.modelName) }),
      ).toBeVisible();
      await seller.getByRole('link', { name: FIXTURE.verifiedSeller.name }).click();

      await expect(page).toHaveURL(/\/seller\/[0-9a-f-]{36}$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(FIXTURE.verifiedSeller.name);
      await expect(page).toHaveTitle(`${FIXTURE.verifiedSeller.name}, seller · Phone Market`);
      await expect(page.getByText('2 for sale')).toBeVisible();
      await expect(page.getByRole('article')).toHaveCount(2);
      await expect(page.getByRole('article', { name: FIXTURE.samsung.modelName })).toBeVisible();

      await page.goBack();
      await expect(page).toHaveURL(productUrl);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(f.modelName);
      await page.goBack();
      await expect(page).toHaveURL(/\/category\/01$/);
      await expect(page.getByRole('article', { name: f.modelName })).toBeVisible();
    });

    test("a phone's page arrives whole: nothing moves once it has painted", async ({ page }) => {
      await page.goto('/category/01');
      const href = await page
        .getByRole('article', { name: f.modelName })
        .getByRole('link', { name: f.modelName })
        .getAttribute('href');
      await page.goto(href ?? '');
      await hydrated(page);
      const cover = page.getByRole('region', { name: 'Photos' }).getByRole('img').first();
      await expect
        .poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0);
      expect(await layoutShift(page)).toBeLessThan(0.01);
    });
  });
}

test("a sold phone's page says it is sold and offers no Book Now", async ({ page }) => {
  await page.goto('/category/01');
  await page
    .getByRole('article', { name: FIXTURE.sold.modelName })
    .getByRole('link', { name: FIXTURE.sold.modelName })
    .click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(FIXTURE.sold.modelName);
  await expect(page.getByRole('status').getByText('This phone has been sold.')).toBeVisible();
  await expect(page.getByRole('main').getByText('Sold', { exact: true })).toBeVisible();
  await expect(ofThePhone(page, page.getByRole('button', { name: 'Book Now' }))).toHaveCount(0);
});

test('an unknown phone or seller is the 404 page, answered with status 404', async ({
  page,
  consoleErrors,
}) => {
  consoleErrors.allow(/status of 404/); // Chromium logs the page's own 404
  for (const path of [
    '/product/7b0a3c1e-0000-4000-8000-00000000dead',
    '/product/not-a-phone',
    '/seller/7b0a3c1e-0000-4000-8000-00000000dead',
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByText("Sorry, we couldn't find this page.")).toBeVisible();
  }
});

test("signing in from the phone's page's booking prompt comes back to book it there", async ({
  page,
  baseURL,
}) => {
  const model = `Oppo Page ${Date.now().toString(36)}`;
  const seller = await createSellerWithPhone(baseURL as string, '04', model);
  const id = await productIdOf(seller, model);
  const buyer = await createAccountViaApi(baseURL as string, 'user', 'pagebuyer');
  await page.goto(`/product/${id}`);
  await hydrated(page);
  await ofThePhone(page, page.getByRole('main').getByRole('button', { name: 'Book Now' })).click();
  await page
    .getByRole('dialog', { name: 'Please login or create an account to book a product!!' })
    .getByRole('link', { name: 'Sign in' })
    .click();
  await expect(page).toHaveURL(`/signin?from=${encodeURIComponent(`/product/${id}?book=${id}`)}`);

  await page.getByLabel('Email').fill(buyer.email);
  await page.getByLabel('Password').fill(API_PASSWORD);
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`/product/${id}`);
  const dialog = page.getByRole('dialog', { name: `Book for ${model}` });
  await dialog.getByPlaceholder('Meeting Location').fill('Central Station');
  await dialog.getByLabel(/Phone number/).fill('+1 303 555 0199');
  await dialog.getByRole('button', { name: 'Order' }).click();
  await expect(page.getByText('Your Booking is confirmed.')).toBeVisible();
  await expect(ofThePhone(page, page.getByRole('main').getByText('Booked by you'))).toBeVisible();
  await expect(page.getByRole('link', { name: `Pay now for ${model}` })).toBeVisible();
});
