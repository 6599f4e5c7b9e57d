/**
 * Bulk listing (issue 35): a seller downloads the template from My Products' "Add many", fills
 * twenty rows (two of them wrong) and uploads them with a ZIP of their photos; the preview shows
 * each wrong row's problem by its column, the eighteen others list in the background; the seller
 * fixes the two rows and sends the same files again, which lists just those two; all twenty are
 * then on their brand's page. axe finds nothing serious on the page, light and dark, at laptop and
 * phone size.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { BULK_COLUMNS } from '../../src/shared/bulk';
import { bulkCsv, bulkRow } from '../helpers/bulk-files';
import { syntheticPhoto } from '../helpers/synthetic-photos';
import { zipOf } from '../helpers/zip-files';
import { createAccountViaApi, productsOf } from './api';
import { seriousFindings } from './axe';
import { expect, test } from './console';
import { signedIn } from './signed-in';

const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** Twenty phones as a shop fills the template: Samsung, two photos each of ten. */
const rowsOf = (tag: string) =>
  Array.from({ length: 20 }, (_, i) =>
    bulkRow({
      'Model name': `Galaxy ${tag} ${i + 1}`,
      'Resale price ($)': `$${300 + i}`,
      Description: 'Unlocked, tested, with a charger.',
      Photos: `p${i % 10}.jpg|p${(i + 1) % 10}.jpg`,
    }),
  );

async function upload(page: Page, csv: Buffer, zip: Buffer) {
  await page
    .getByLabel('CSV file')
    .setInputFiles({ name: 'phones.csv', mimeType: 'text/csv', buffer: csv });
  await page
    .getByLabel('ZIP file of the photos')
    .setInputFiles({ name: 'photos.zip', mimeType: 'application/zip', buffer: zip });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
}

test('a seller lists twenty phones from the template, fixes two and sees them all for sale', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const seller = await createAccountViaApi(baseURL as string, 'seller', 'shop');
  const page = await signedIn(browser, seller.email, '/dashboard/myproducts', LAPTOP);
  await page.getByRole('link', { name: 'Add many' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Add many phones' })).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download the template (CSV)' }).click();
  const template = await readFile((await (await download).path()) as string, 'utf8');
  expect(template.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(BULK_COLUMNS.join(','));

  const tag = Date.now().toString(36);
  const rows = rowsOf(tag);
  const photos = await Promise.all(
    Array.from({ length: 10 }, (_, i) => syntheticPhoto((Date.now() % 100_000) + i * 7919, 640)),
  );
  const zip = zipOf(photos.map((data, i) => ({ name: `p${i}.jpg`, data })));
  const wrong = rows.map((r, i) =>
    i === 2 ? { ...r, 'Resale price ($)': 'cheap' } : i === 9 ? { ...r, Condition: 'Like new' } : r,
  );

  await upload(page, bulkCsv(wrong), zip);
  await expect(page.getByText('18 of 20 rows can be listed.')).toBeVisible({ timeout: 60_000 });
  const table = page.getByRole('table', { name: 'The rows of your file' });
  await expect(table.getByRole('row').filter({ hasText: `Galaxy ${tag} 3` })).toContainText(
    'Resale price ($): write the price in dollars',
  );
  await expect(table.getByRole('row').filter({ hasText: `Galaxy ${tag} 10` })).toContainText(
    'Condition:',
  );
  expect(await seriousFindings(page, 'Add many: a preview')).toEqual([]);

  await page.getByRole('button', { name: 'List 18 phones' }).click();
  await expect(page.getByText('18 phones listed.')).toBeVisible({ timeout: 90_000 });

  // The two rows fixed, the same files again: only they are listed, the rest are listed already.
  await upload(page, bulkCsv(rows), zip);
  await expect(page.getByText('2 of 20 rows can be listed.')).toBeVisible({ timeout: 60_000 });
  await expect(table.getByText('IMEI: This phone is already listed').first()).toBeVisible();
  await page.getByRole('button', { name: 'List 2 phones' }).click();
  await expect(page.getByText('2 phones listed.')).toBeVisible({ timeout: 60_000 });

  await page.setViewportSize(PHONE);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    PHONE.width,
  );
  expect(await seriousFindings(page, 'Add many on a phone')).toEqual([]);

  const listed = Object.keys(await productsOf(seller));
  expect(listed.filter((name) => name.startsWith(`Galaxy ${tag} `))).toHaveLength(20);
  // On the brand's page, newest first, as buyers see them.
  await page.goto('/category/02');
  await expect(page.getByText(`Galaxy ${tag} 20`).first()).toBeVisible();
  await expect(page.getByText(`Galaxy ${tag} 3`, { exact: true }).first()).toBeVisible();
});
