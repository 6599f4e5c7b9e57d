/**
 * A listing a seller can manage (issue 19): typed as people type (`1,200`, `4,500 mAh`,
 * `18 months`, an IMEI), listed, edited to a lower price, advertised ("Advertised"), withdrawn
 * (its page says it is no longer listed) and relisted. Once at a desktop's size, once at a
 * phone's (390×844), where My Products' table becomes cards.
 */
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { API_PASSWORD, createAccountViaApi, uniqueImei } from './api';
import { expect, test } from './console';
import { myProductsRow } from './my-products';
import { ofThePhone } from './phone-page';

async function signInAsNewSeller(page: Page, baseURL: string) {
  const seller = await createAccountViaApi(baseURL, 'seller', 'listings');
  await page.goto('/signin?from=%2Fdashboard%2Faddaproduct');
  await page.getByLabel('Email').fill(seller.email);
  await page.getByLabel('Password').fill(API_PASSWORD);
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Add A Product' })).toBeVisible();
  return seller;
}

const photo = () =>
  sharp({ create: { width: 900, height: 700, channels: 3, background: '#947' } })
    .jpeg()
    .toBuffer();

/** The phone's row in My Products (a card on a phone's screen, still a row to assistive tech). */
const rowOf = (page: Page, model: string) => myProductsRow(page, model);

for (const [size, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  test.describe(`at ${size} size`, () => {
    test.use({ viewport });

    test('a seller lists a phone as typed, lowers its price, advertises, withdraws and relists it', async ({
      page,
      baseURL,
    }) => {
      test.setTimeout(90_000);
      const model = `Infinix Listwell ${size} ${Date.now().toString(36)}`;
      await signInAsNewSeller(page, baseURL as string);

      // A mistyped IMEI is told beside its field before anything is sent.
      await page.getByLabel('IMEI').fill('490154203237519');
      await page.getByRole('button', { name: 'Add A Product' }).click();
      await expect(page.getByText('A digit is mistyped')).toBeVisible();

      await page.getByLabel('Category').selectOption({ label: 'Infinix' });
      await page.getByLabel('Model name').fill(model);
      await page.getByLabel('RAM').selectOption('8 GB');
      await page.getByLabel('Storage').selectOption('128 GB');
      await page.getByLabel('Color').fill('Plum');
      await page.getByLabel('Battery (mAh)').fill('4,500 mAh');
      await page.getByLabel('Battery health (%)').fill('88%');
      await page.getByLabel('IMEI').fill(uniqueImei());
      // The fair-price guide answers once model and storage are set (a new model: no sales yet).
      await expect(
        page.getByText('No sales of this model and storage in the last 90 days yet.'),
      ).toBeVisible();
      await page.getByLabel('Resale price ($)').fill('1,200');
      await page.getByLabel('Original price ($)').fill('$1,500');
      await page.getByLabel('Time used (months)').fill('18 months');
      await page.getByLabel('Condition').selectOption('Good');
      await page.getByLabel('Phone number').fill('+1 206 555 0177');
      await page.getByLabel('Location').fill('Spokane, WA');
      await page.getByLabel('Description').fill('Typed the way people type.');
      // Its label says 'Required Field' too since the first try.
      await page
        .getByLabel(/^Photos/)
        .setInputFiles({ name: 'plum.jpg', mimeType: 'image/jpeg', buffer: await photo() });
      await expect(page.getByText('A digit is mistyped')).toHaveCount(0);
      // As a person would: the photo stored (its progress bar gone and its line said) before the
      // click, so that the button is not moving under the pointer as that line appears above it.
      await expect(page.getByRole('main').getByRole('progressbar')).toHaveCount(0);
      await expect(page.getByText('Photo 1 uploaded.')).toBeVisible();
      await page.getByRole('button', { name: 'Add A Product' }).click();

      await expect(page.getByText('Product uploaded sucessfully')).toBeVisible();
      await expect(page).toHaveURL(/\/dashboard\/myproducts$/);
      await expect(rowOf(page, model)).toContainText('$1,200');
      await expect(rowOf(page, model)).toContainText('Available');

      // The edit form shows what was stored, normalised; the price goes down.
      await rowOf(page, model)
        .getByRole('link', { name: `Edit ${model}` })
        .click();
      await expect(page.getByRole('heading', { level: 1, name: `Edit ${model}` })).toBeVisible();
      await expect(page.getByLabel('Resale price ($)')).toHaveValue('1200');
      await expect(page.getByLabel('Battery (mAh)')).toHaveValue('4500');
      await expect(page.getByLabel('Time used (months)')).toHaveValue('18');
      await expect(page.getByLabel('Battery health (%)')).toHaveValue('88');
      await expect(page.getByText(/IMEI ending in \d{4}/)).toBeVisible();
      await page.getByLabel('Resale price ($)').fill('1,100');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(page.getByText('Changes saved.')).toBeVisible();
      await expect(page).toHaveURL(/\/dashboard\/myproducts$/);
      await expect(rowOf(page, model)).toContainText('$1,100');

      // Advertised, it says so instead of offering Avertise again.
      await rowOf(page, model)
        .getByRole('button', { name: `Avertise ${model}` })
        .click();
      await page.getByRole('button', { name: 'OK' }).click();
      await expect(page.getByText('Your request for advertising is successfull')).toBeVisible();
      await expect(rowOf(page, model)).toContainText('Advertised');
      await expect(rowOf(page, model).getByRole('button', { name: /Avertise/ })).toHaveCount(0);
      await expect(
        rowOf(page, model).getByRole('button', { name: `Stop advertising ${model}` }),
      ).toBeVisible();

      // The phone's own page, while listed: the new price.
      const editHref = await rowOf(page, model)
        .getByRole('link', { name: `Edit ${model}` })
        .getAttribute('href');
      const id = /myproducts\/([^/]+)\/edit/.exec(editHref ?? '')?.[1];
      await page.goto(`/product/${id}`);
      await expect(page.getByRole('heading', { level: 1, name: model })).toBeVisible();
      await expect(page.getByRole('main')).toContainText('$1,100');
      await expect(ofThePhone(page, page.getByRole('main').getByText('was $1,200'))).toBeVisible();
      // And its card on the brand's page: the drop, the old price struck after "was".
      await page.goto('/category/03');
      const card = page.getByRole('article', { name: model });
      await expect(card).toContainText('$1,100');
      await expect(card.locator('del', { hasText: '$1,200' })).toBeVisible();
      await expect(card.getByText('was $1,200')).toBeVisible();

      // Withdrawn: its page says so; relisted: for sale again.
      await page.goto('/dashboard/myproducts');
      await rowOf(page, model)
        .getByRole('button', { name: `Withdraw ${model}` })
        .click();
      await page.getByRole('button', { name: 'OK' }).click();
      await expect(
        page.getByText('The phone is withdrawn: buyers no longer see it.'),
      ).toBeVisible();
      await expect(rowOf(page, model)).toContainText('Withdrawn');
      await expect(rowOf(page, model).getByRole('link', { name: `Edit ${model}` })).toHaveCount(0);
      await page.goto(`/product/${id}`);
      await expect(page.getByText('This phone is no longer listed.')).toBeVisible();
      await expect(ofThePhone(page, page.getByRole('button', { name: 'Book Now' }))).toHaveCount(0);

      await page.goto('/dashboard/myproducts');
      await rowOf(page, model)
        .getByRole('button', { name: `Relist ${model}` })
        .click();
      await expect(page.getByText('The phone is listed again.')).toBeVisible();
      await expect(rowOf(page, model)).toContainText('Available');
      await expect(rowOf(page, model).getByRole('link', { name: `Edit ${model}` })).toBeVisible();
    });
  });
}
