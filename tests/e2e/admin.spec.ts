import type { Page } from '@playwright/test';
import { API_PASSWORD, createAccountViaApi, createSellerWithPhone } from './api';
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
  const model = `Oppo Verify ${Date.now().toString(36)}`;
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

test('the admin bans an address: it cannot sign in, and after the ban is lifted it signs up anew', async ({
  page,
  baseURL,
}) => {
  const seller = await createAccountViaApi(baseURL as string, 'seller', 'banned');
  await signInAsAdmin(page, '/dashboard/banned');
  await expect(page.getByRole('heading', { level: 1, name: 'Banned Addresses' })).toBeVisible();
  await page.getByLabel('E-mail address to ban').fill(seller.email);
  await page.getByRole('button', { name: 'Ban', exact: true }).click();
  await page
    .getByRole('dialog', { name: `Ban ${seller.email}? Its account, if any, is deleted.` })
    .getByRole('button', { name: 'OK' })
    .click();
  await expect(page.getByText(`${seller.email} is banned and its account deleted.`)).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: seller.email });
  await expect(row.getByRole('cell', { name: 'Banned', exact: true })).toBeVisible();

  // The banned seller's next call is refused, and the address cannot sign up again.
  expect(
    (
      await seller.api.get(`/api/products?email=${seller.email}`, { headers: seller.bearer })
    ).status(),
  ).toBe(401);
  const again = await seller.api.post('/api/auth/sign-up/email', {
    data: { email: seller.email, name: seller.name, password: API_PASSWORD },
  });
  expect(again.status()).toBe(403);

  await row.getByRole('button', { name: `Lift ban ${seller.email}` }).click();
  await page
    .getByRole('dialog', { name: `Let ${seller.email} sign up again?` })
    .getByRole('button', { name: 'OK' })
    .click();
  await expect(page.getByText(`${seller.email} may sign up again.`)).toBeVisible();
  await expect(row).toHaveCount(0);
  const anew = await seller.api.post('/api/auth/sign-up/email', {
    data: { email: seller.email, name: seller.name, password: API_PASSWORD },
  });
  expect(anew.status()).toBe(200);
});
