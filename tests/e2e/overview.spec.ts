/**
 * The admin's Overview (issue 35): a phone listed today shows on today's row, the page fits a
 * phone without sideways scrolling, and axe finds nothing serious in either theme.
 */
import type { Page } from '@playwright/test';
import { createSellerWithPhone } from './api';
import { seriousFindings } from './axe';
import { expect, test } from './console';
import { FIXTURE } from './fixture';

const PHONE = { width: 390, height: 844 };

async function signIn(page: Page, to: string) {
  await page.goto(`/signin?from=${encodeURIComponent(to)}`);
  await page.getByLabel('Email').fill(FIXTURE.admin.email);
  await page.getByLabel('Password').fill(FIXTURE.password);
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`${to.replace(/[/?]/g, '\\$&')}$`));
}

/** Today's listings as the Overview's table shows them (its rows are newest first). */
async function todaysListings(page: Page): Promise<number> {
  const today = page.getByRole('region', { name: 'By day' }).getByRole('row').nth(1);
  await expect(today.getByRole('rowheader')).toHaveText(
    new Date().toLocaleDateString('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    }),
  );
  return Number(await today.getByRole('cell').first().textContent());
}

test("as the admin, the Overview shows the day's listings, fits a phone and passes axe", async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize(PHONE);
  await signIn(page, '/dashboard/overview');
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await page.getByRole('link', { name: '7 days' }).click();
  await expect(page.getByRole('link', { name: '7 days' })).toHaveAttribute('aria-current', 'page');
  const before = await todaysListings(page);

  await createSellerWithPhone(baseURL ?? '', '04', `Overview Phone ${Date.now()}`);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  expect(await todaysListings(page)).toBeGreaterThan(before);
  await expect(page.getByRole('img', { name: /^Listings by day: / })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Export CSV' })).toBeVisible();

  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    PHONE.width,
  );
  expect(await seriousFindings(page, 'Overview on a phone')).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });
  expect(await seriousFindings(page, 'Overview on a laptop')).toEqual([]);
});
