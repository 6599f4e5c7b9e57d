import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { uniqueImei } from './api';
import { expect, test } from './console';
import { FIXTURE } from './fixture';
import { myProductsRow } from './my-products';

async function signInAsSeller(page: Page) {
  await page.goto('/signin?from=%2Fdashboard%2Faddaproduct');
  await page.getByLabel('Email').fill(FIXTURE.verifiedSeller.email);
  await page.getByLabel('Password').fill(FIXTURE.password);
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Add A Product' })).toBeVisible();
}

async function fillProduct(page: Page, model: string) {
  await page.getByLabel('Category').selectOption({ label: 'Infinix' });
  await page.getByLabel('Model name').fill(model);
  await page.getByLabel('RAM').selectOption('8 GB');
  await page.getByLabel('Storage').selectOption({ label: '1 TB' });
  await page.getByLabel('Color').fill('Green');
  await page.getByLabel('Battery (mAh)').fill('5000');
  await page.getByLabel('Resale price ($)').fill('189.99');
  await page.getByLabel('Original price ($)').fill('299');
  await page.getByLabel('Time used (months)').fill('7');
  await page.getByLabel('IMEI').fill(uniqueImei());
  await page.getByLabel('Condition').selectOption('Flawless');
  await page.getByLabel('Phone number').fill('+1 206 555 0199');
  await page.getByLabel('Location').fill('Seattle, WA');
  await page.getByLabel('Description').fill('Barely used, with the original charger.');
}

const photo = () =>
  sharp({ create: { width: 1200, height: 900, channels: 3, background: '#2a7' } })
    .jpeg()
    .toBuffer();

test('a seller adds a phone with a photo, advertises it, and deletes it from everywhere', async ({
  page,
}) => {
  // Eleven pages on a loaded two-core machine: 50 s to 66 s measured.
  test.setTimeout(120_000);
  const model = `Infinix Zero E2E ${Date.now().toString(36)}`;
  await signInAsSeller(page);
  await expect(page.getByLabel('Seller name')).toHaveValue(FIXTURE.verifiedSeller.name);
  await expect(page.getByLabel('Seller name')).toHaveAttribute('readonly', '');
  await fillProduct(page, model);
  await page
    .getByLabel('Photos', { exact: true })
    .setInputFiles({ name: 'zero.jpg', mimeType: 'image/jpeg', buffer: await photo() });
  // The photo stored before the click: its line appearing above the button moves the button.
  await expect(page.getByText('Photo 1 uploaded.')).toBeVisible();
  await page.getByRole('button', { name: 'Add A Product' }).click();

  await expect(page.getByText('Product uploaded sucessfully')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/myproducts$/);
  const row = myProductsRow(page, model);
  await expect(row).toContainText('$189.99');
  await expect(row).toContainText('Available');

  await page.goto('/category/03');
  const card = page.getByRole('article', { name: model });
  const img = card.getByRole('img', { name: `${model} in Green` });
  await expect(img).toBeVisible();
  await expect
    .poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth))
    .toBeGreaterThan(0);
  await expect(card.getByText('1 TB', { exact: true })).toBeVisible();

  await page.goto('/dashboard/myproducts');
  await page.getByRole('button', { name: `Avertise ${model}` }).click();
  await expect(
    page.getByRole('dialog', { name: 'Do you want to advertise your product!!?' }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Your request for advertising is successfull')).toBeVisible();
  await page.goto('/');
  await expect(
    page
      .getByRole('region', { name: 'Advertise of Products' })
      .getByRole('heading', { name: model }),
  ).toBeVisible();

  await page.goto('/dashboard/myproducts');
  await page.getByRole('button', { name: `Delete ${model}` }).click();
  await page
    .getByRole('dialog', { name: 'Are you sure, you want to delete?' })
    .getByRole('button', { name: 'Cancel' })
    .click();
  await expect(myProductsRow(page, model)).toHaveCount(1);
  await page.getByRole('button', { name: `Delete ${model}` }).click();
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Deleted Product Successfully.')).toBeVisible();
  await expect(myProductsRow(page, model)).toHaveCount(0);
  await page.goto('/category/03');
  await expect(page.getByRole('article', { name: model })).toHaveCount(0);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: model })).toHaveCount(0);
});

test('a photo.gif shows the format message and uploads nothing', async ({ page }) => {
  const uploads: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/images') || r.url().includes('/api/products')) uploads.push(r.url());
  });
  await signInAsSeller(page);
  await fillProduct(page, 'Gif Phone');
  await page
    .getByLabel('Photos', { exact: true })
    .setInputFiles({ name: 'photo.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
  await page.getByRole('button', { name: 'Add A Product' }).click();
  await expect(page.getByText('Your image formate should be jpg, jpeg, png, webp')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/addaproduct$/);
  expect(uploads).toEqual([]);
});
