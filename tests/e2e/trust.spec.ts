/**
 * What tells a buyer a listing can be trusted (issue 19): the "IMEI checked" badge, the battery
 * health and the price's note against comparable completed sales, on a card and on the phone's
 * page; and the admin's block of a stolen phone's IMEI, which takes its listing off the brand page.
 */
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { uniqueImei } from '../helpers/factories';
import { type Account, bookPhone, createAccountViaApi, handOver, payOrder } from './api';
import { seriousFindings } from './axe';
import { expect, test } from './console';
import { FIXTURE } from './fixture';
import { ofThePhone } from './phone-page';

/** Lists a phone of `seller`'s at $250 (what `payOrder` pays) and answers its id. */
async function list(
  seller: Account,
  image: string,
  modelName: string,
  extra: { imei?: string; batteryHealth?: number } = {},
): Promise<string> {
  const res = await seller.api.post('/api/products', {
    headers: seller.bearer,
    data: {
      categoryId: '04',
      modelName,
      image,
      originalPrice: 500,
      resellPrice: 250,
      location: 'Denver, CO',
      description: 'Made for the trust test.',
      timeUsed: 3,
      condition: 'Good',
      sellerNumber: '+1 303 555 0100',
      specificatons: { ram: '8 GB', storage: '128 GB', color: 'Blue', battery: 4500 },
      imei: uniqueImei(),
      ...extra,
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { insertedId: string }).insertedId;
}

async function uploadPhoto(seller: Account): Promise<string> {
  const buffer = await sharp({
    create: { width: 800, height: 600, channels: 3, background: '#2a6' },
  })
    .jpeg()
    .toBuffer();
  const res = await seller.api.post('/api/images', {
    headers: seller.bearer,
    multipart: { image: { name: 'phone.jpg', mimeType: 'image/jpeg', buffer } },
  });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: { url: string } }).data.url;
}

async function signInAsAdmin(page: Page, to: string) {
  await page.goto(`/signin?from=${encodeURIComponent(to)}`);
  await page.getByLabel('Email').fill(FIXTURE.admin.email);
  await page.getByLabel('Password').fill(FIXTURE.password);
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
}

test('a buyer sees the IMEI badge, the battery health and the price note; the admin blocks the IMEI and the phone leaves the brand page', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000).toString(36)}`;
  // The sold ones in capitals: the same model to the price guide (case and spaces aside), another
  // name to the page, so the live phone's card is the only one named `model` exactly.
  const model = `Trusty ${stamp}`;
  const imei = uniqueImei();
  const seller = await createAccountViaApi(baseURL as string, 'seller', 'trusted');
  const buyer = await createAccountViaApi(baseURL as string, 'user', 'truster');
  const image = await uploadPhoto(seller);
  // Five completed sales of the model at $250 by three sellers to three buyers: enough for a note
  // on the price (decision 038: one person's own sales would not count).
  const sellers = [
    seller,
    await createAccountViaApi(baseURL as string, 'seller', 'trusted'),
    await createAccountViaApi(baseURL as string, 'seller', 'trusted'),
  ];
  const buyers = [
    buyer,
    await createAccountViaApi(baseURL as string, 'user', 'truster'),
    await createAccountViaApi(baseURL as string, 'user', 'truster'),
  ];
  for (let i = 0; i < 5; i++) {
    const [by, from] = [buyers[i % 3] as Account, sellers[i % 3] as Account];
    const orderId = await bookPhone(by, await list(from, image, model.toUpperCase()));
    await payOrder(by, orderId);
    await handOver(from, by, orderId);
  }
  const productId = await list(seller, image, model, { imei, batteryHealth: 92 });

  // On the brand page's card…
  await page.goto('/category/04');
  const card = page.getByRole('article', { name: model, exact: true });
  await expect(card).toBeVisible();
  await expect(card.getByText('IMEI checked')).toBeVisible();
  await expect(card.getByText('Good price')).toBeVisible();
  await expect(card.getByText('Good price')).toHaveAttribute(
    'title',
    /At or below the median price of recent sales/,
  );
  await expect(card.getByText('Battery health')).toBeVisible();
  await expect(card).toContainText('92%');
  await expect(card).not.toContainText(imei);
  const findings = await seriousFindings(page, 'the brand page with the badges');

  // …and on the phone's page.
  await card.getByRole('link', { name: model, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/product/${productId}$`));
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1, name: model })).toBeVisible();
  await expect(ofThePhone(page, main.getByText('IMEI checked'))).toBeVisible();
  await expect(ofThePhone(page, main.getByText('Good price'))).toBeVisible();
  await expect(main).toContainText('92%');
  await expect(main).not.toContainText(imei);
  findings.push(...(await seriousFindings(page, "the phone's page")));
  expect(findings).toEqual([]);

  // The admin blocks the IMEI, reported stolen: its listing is withdrawn.
  await signInAsAdmin(page, '/dashboard/blocked-imeis');
  await expect(page.getByRole('heading', { level: 1, name: 'Blocked IMEIs' })).toBeVisible();
  await page.getByLabel('IMEI', { exact: true }).fill(`${imei.slice(0, 8)} ${imei.slice(8)}`);
  await page.getByLabel('Reason', { exact: true }).fill('Reported stolen by its owner');
  await page.getByRole('button', { name: 'Block', exact: true }).click();
  const last4 = imei.slice(-4);
  await expect(
    page.getByText(`The IMEI ending in ${last4} is blocked; 1 listing was withdrawn.`),
  ).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: `•••• ${last4}` });
  await expect(row.first()).toContainText('Reported stolen by its owner');
  await expect(page.getByRole('main')).not.toContainText(imei);

  await page.goto('/category/04');
  await expect(page.getByRole('article').first()).toBeVisible();
  await expect(page.getByRole('article', { name: model, exact: true })).toHaveCount(0);

  // Unblocking relists nothing.
  await page.goto('/dashboard/blocked-imeis');
  await row
    .first()
    .getByRole('button', { name: `Unblock IMEI ending in ${last4}` })
    .click();
  await page
    .getByRole('dialog', { name: new RegExp(`^Unblock the IMEI ending in ${last4}\\?`) })
    .getByRole('button', { name: 'OK' })
    .click();
  await expect(page.getByText(`The IMEI ending in ${last4} is unblocked.`)).toBeVisible();
  await page.goto('/category/04');
  await expect(page.getByRole('article').first()).toBeVisible();
  await expect(page.getByRole('article', { name: model, exact: true })).toHaveCount(0);
});
