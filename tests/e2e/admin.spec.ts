import type { Page } from '@playwright/test';
import { createAccountViaApi, createSellerWithPhone } from './api';
import { expect, test } from './console';
import { FIXTURE } from './fixture';

async function signInAsAdmin(page: Page, to: string) {
  await page.goto(`/signin?from=${encodeURIComponent(to)}`);
  await page.getByLabel('Email').fill(FIXTURE.admin.email);
  await page.getByLabel('Password').fill(FIXTURE.password);
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
}

test("the admin verifies a seller and the badge appears on that seller's phone", async ({
  page,
  baseURL,
}) => {
  const model = `Oppo Verify ${Date.now()}`;
  const seller = await createSellerWithPhone(baseURL as string, '04', model);
  await page.goto('/category/04');
  await expect(
    page.getByRole('article', { name: model }).getByTitle('Verified seller'),
  ).toHaveCount(0);

  await signInAsAdmin(page, '/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'All Sellers' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Varification Status' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: seller.email });
  await row.getByRole('button', { name: `verify ${seller.email}` }).click();
  await expect(page.getByText('User Verified!')).toBeVisible();
  await expect(row.getByText('Verified', { exact: true })).toBeVisible();

  await page.goto('/category/04');
  await expect(
    page.getByRole('article', { name: model }).getByTitle('Verified seller'),
  ).toBeVisible();
});

test('the admin deletes a buyer after confirming, and cancelling deletes nothing', async ({
  page,
  baseURL,
}) => {
  const buyer = await createAccountViaApi(baseURL as string, 'user', 'buyer');
  await signInAsAdmin(page, '/dashboard/allbuyer');
  await expect(page.getByRole('heading', { level: 1, name: 'All Buyers' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: buyer.email });
  await expect(row).toHaveCount(1);

  await row.getByRole('button', { name: `Delete ${buyer.email}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Are you sure, you want to delete?' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.reload();
  await expect(row).toHaveCount(1);

  await row.getByRole('button', { name: `Delete ${buyer.email}` }).click();
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('User Deleted Successfully')).toBeVisible();
  await expect(row).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: buyer.email })).toHaveCount(0);
});
