/**
 * Reporting a listing (issue 34), at a small phone's width (360 px): a visitor who taps "Report
 * this listing" signs in and comes back to the dialog, reports the phone, is told a second report
 * is not needed, and finds it Open in My reports. axe finds nothing serious or critical on the
 * dialog and the page, in the light and the dark theme.
 */
import type { Page } from '@playwright/test';
import { API_PASSWORD, createAccountViaApi, createSellerWithPhone, productIdOf } from './api';
import { seriousFindings } from './axe';
import { expect, test } from './console';

const SMALL_PHONE = { width: 360, height: 780 };

/** What of the page's own content reaches past the screen's right edge (none: no sideways scroll). */
const overflowing = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('main *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`),
  );

test('a buyer reports a listing from its page and sees it Open in My reports', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const model = `Oppo Report${Date.now().toString(36)}`;
  const seller = await createSellerWithPhone(baseURL as string, '04', model);
  const productId = await productIdOf(seller, model);
  const buyer = await createAccountViaApi(baseURL as string, 'user', 'reporter');
  const page = await (await browser.newContext({ viewport: SMALL_PHONE })).newPage();
  const findings: string[] = [];

  // A visitor is asked to sign in, and comes back to the phone with the dialog open.
  await page.goto(`/product/${productId}`);
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
  await page.getByRole('button', { name: 'Report this listing' }).click();
  await expect(page).toHaveURL(/\/signin\?from=/);
  await page.getByLabel('Email').fill(buyer.email);
  await page.getByLabel('Password').fill(API_PASSWORD);
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
  const dialog = page.getByRole('dialog', { name: 'Report this listing' });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/product/${productId}$`));
  await expect(dialog).toContainText(`${model}, 128 GB, Good`);
  expect(await overflowing(page)).toEqual([]);
  findings.push(...(await seriousFindings(page, 'report dialog')));

  // Sent without a reason: told, nothing sent; then with one, by keyboard, and a note.
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Choose a reason.');
  await expect(dialog.getByRole('radio', { name: 'Scam, or too good to be true' })).toBeFocused();
  await page.keyboard.press('Space');
  await expect(dialog.getByRole('radio', { name: 'Scam, or too good to be true' })).toBeChecked();
  await dialog
    .getByLabel('Anything that would help us (optional)')
    .fill('The same photos are on another listing.');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('Thanks: your report was sent.')).toBeVisible();
  await expect(dialog).toBeHidden();

  // A second report of the same phone is refused, in words, in the dialog.
  await page.getByRole('button', { name: 'Report this listing' }).click();
  await dialog.getByRole('radio', { name: 'Something else' }).check();
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('You have already reported this listing.');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // Focus is back where it was: on the button that opened the dialog.
  await expect(page.getByRole('button', { name: 'Report this listing' })).toBeFocused();

  // My reports lists it, Open, and fits a small phone's width.
  await page.goto('/dashboard/reports');
  await expect(page.getByRole('heading', { level: 1, name: 'My reports' })).toBeVisible();
  const item = page.getByRole('listitem', { name: `${model} (128 GB, Good)` });
  await expect(item).toContainText('Scam, or too good to be true');
  await expect(item).toContainText('Open');
  await expect(item).toContainText('The same photos are on another listing.');
  expect(await overflowing(page)).toEqual([]);
  findings.push(...(await seriousFindings(page, 'My reports')));

  // Its seller sees no Report button on their own phone.
  const own = await (await browser.newContext({ viewport: SMALL_PHONE })).newPage();
  await own.goto(`/signin?from=${encodeURIComponent(`/product/${productId}`)}`);
  await own.getByLabel('Email').fill(seller.email);
  await own.getByLabel('Password').fill(API_PASSWORD);
  await own.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
  await expect(own.getByRole('heading', { level: 1, name: model })).toBeVisible();
  await expect(own.getByRole('button', { name: 'Report this listing' })).toHaveCount(0);

  expect(findings).toEqual([]);
});
