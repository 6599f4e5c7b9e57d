/**
 * Scams caught before they cost anyone (issue 34), as its "Done when" walks it: a new seller lists
 * a phone at a fifth of the guide's price with a photo copied from another seller's listing (the
 * served picture, saved and uploaded again); a buyer in a second browser never sees it; its seller
 * sees it under review; the admin finds it first in the Review queue with both reasons and the
 * two photos side by side, bans the seller, and listing and account are gone. A buyer's report of
 * another listing reaches the queue; the admin withdraws that listing and the buyer reads "Action
 * taken" in My reports. axe finds nothing serious on the queue, light and dark.
 */
import type { Page } from '@playwright/test';
import { syntheticPhoto } from '../helpers/synthetic-photos';
import {
  type Account,
  API_PASSWORD,
  bookPhone,
  createAccountViaApi,
  createSellerWithPhone,
  handOver,
  listPhone,
  payOrder,
  productIdOf,
  uniqueImei,
} from './api';
import { seriousFindings } from './axe';
import { expect, test } from './console';
import { FIXTURE } from './fixture';
import { myProductsTable } from './my-products';

const SMALL_PHONE = { width: 360, height: 780 };
const LAPTOP = { width: 1280, height: 800 };

async function signIn(page: Page, email: string, password: string, to: string) {
  await page.goto(`/signin?from=${encodeURIComponent(to)}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`${to.replace(/[/?]/g, '\\$&')}$`));
}

/** Uploads a photo for `seller`, answering its URL. */
async function upload(seller: Account, buffer: Buffer, name: string, mimeType: string) {
  const res = await seller.api.post('/api/images', {
    headers: seller.bearer,
    multipart: { image: { name, mimeType, buffer } },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { data: { url: string } }).data.url;
}

test('a copied photo at a fifth of the guide is held, first in the queue with both reasons, and a ban removes it', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const base = baseURL as string;
  const model = `Pixel Guide${Date.now().toString(36)}`;

  // The guide: five sales of the model at $250, each by a seller of its own to a buyer of its own.
  for (let i = 0; i < 5; i++) {
    const seller = await createSellerWithPhone(base, '04', model);
    const buyer = await createAccountViaApi(base, 'user', 'guidebuyer');
    const orderId = await bookPhone(buyer, await productIdOf(seller, model));
    await payOrder(buyer, orderId);
    await handOver(seller, buyer, orderId);
  }

  // An honest seller's phone with a photo of its own.
  const honest = await createAccountViaApi(base, 'seller', 'honest');
  const original = await upload(honest, await syntheticPhoto(34), 'phone.jpg', 'image/jpeg');
  await listPhone(honest, { categoryId: '04', modelName: `Honest ${model}`, image: original });

  // The scammer saves the served picture and lists the same model with it at $50.
  const scammer = await createAccountViaApi(base, 'seller', 'scammer');
  const served = await scammer.api.get(original);
  expect(served.ok()).toBe(true);
  const copy = await upload(scammer, await served.body(), 'copy.webp', 'image/webp');
  expect(copy).not.toBe(original);
  const listed = await scammer.api.post('/api/products', {
    headers: scammer.bearer,
    data: {
      categoryId: '04',
      modelName: model,
      image: copy,
      originalPrice: 500,
      resellPrice: 50,
      location: 'Denver, CO',
      description: 'Like new, must go today.',
      timeUsed: 3,
      condition: 'Good',
      sellerNumber: '+1 303 555 0199',
      specificatons: { ram: '8 GB', storage: '128 GB', color: 'Blue', battery: 4500 },
      imei: uniqueImei(),
    },
  });
  expect(listed.ok(), await listed.text()).toBe(true);
  const heldId = ((await listed.json()) as { insertedId: string }).insertedId;

  // A buyer in a browser of their own never meets it.
  const buyerPage = await (await browser.newContext({ viewport: SMALL_PHONE })).newPage();
  await buyerPage.goto(`/search?q=${encodeURIComponent(model)}`);
  await expect(buyerPage.locator('html[data-hydrated]')).toHaveCount(1);
  await expect(buyerPage.locator(`a[href="/product/${heldId}"]`)).toHaveCount(0);
  const direct = await buyerPage.goto(`/product/${heldId}`);
  expect(direct?.status()).toBe(404);

  // Its seller sees it under review, and why not.
  const scammerPage = await (await browser.newContext({ viewport: SMALL_PHONE })).newPage();
  await signIn(scammerPage, scammer.email, API_PASSWORD, '/dashboard/myproducts');
  await expect(
    myProductsTable(scammerPage).getByRole('row', { name: new RegExp(model) }),
  ).toContainText('Under review');

  // The admin finds it first, with both reasons and the photos side by side.
  const admin = await (await browser.newContext({ viewport: LAPTOP })).newPage();
  await signIn(admin, FIXTURE.admin.email, FIXTURE.password, '/dashboard/review');
  await expect(admin.getByRole('heading', { level: 1, name: 'Review queue' })).toBeVisible();
  const first = admin
    .getByRole('list', { name: 'Listings and accounts to review, riskiest first' })
    .getByRole('listitem')
    .first();
  await expect(first).toContainText(model);
  await expect(first).toContainText('Held');
  await expect(first).toContainText('Priced at $50, 20% of the $250 that phones like it sold for');
  await expect(first).toContainText("1 photo also shown on another seller's listing.");
  await expect(first.getByRole('img', { name: /^Photo 1 of / })).toBeVisible();
  await expect(
    first.getByRole('img', { name: /^The photo of another listing that matches photo 1 of / }),
  ).toBeVisible();
  const findings = await seriousFindings(admin, 'review queue');

  await first.getByRole('button', { name: /^Ban account/ }).click();
  const confirm = admin.getByRole('dialog');
  await expect(confirm).toContainText('bans its e-mail, addresses, cards and IMEIs');
  await confirm.getByRole('button', { name: /^Ban account/ }).click();
  await expect(admin.getByText(/is banned and the account deleted\./)).toBeVisible();

  // Listing and account are gone.
  expect((await buyerPage.request.get(`/api/products/${heldId}`)).status()).toBe(404);
  const again = await scammer.api.get(`/api/jwt?email=${encodeURIComponent(scammer.email)}`);
  expect(again.ok()).toBe(false);

  // A buyer's report of another listing reaches the queue; the admin withdraws it; the buyer reads it.
  const reporter = await createAccountViaApi(base, 'user', 'reporter');
  const reported = `Honest ${model}`;
  const reportedId = await productIdOf(honest, reported);
  await signIn(buyerPage, reporter.email, API_PASSWORD, `/product/${reportedId}`);
  await buyerPage.getByRole('button', { name: 'Report this listing' }).click();
  const dialog = buyerPage.getByRole('dialog', { name: 'Report this listing' });
  await dialog.getByRole('radio', { name: 'The phone may be stolen' }).check();
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(buyerPage.getByText('Thanks: your report was sent.')).toBeVisible();

  await admin.reload();
  const item = admin.getByRole('listitem').filter({ hasText: reported }).first();
  await expect(item).toContainText('The phone may be stolen');
  await item.getByRole('button', { name: /^Withdraw listing/ }).click();
  await admin
    .getByRole('dialog')
    .getByRole('button', { name: /^Withdraw listing/ })
    .click();
  await expect(admin.getByText(/is withdrawn\./)).toBeVisible();

  await buyerPage.goto('/dashboard/reports');
  await expect(buyerPage.getByRole('listitem', { name: new RegExp(reported) })).toContainText(
    'Action taken',
  );
  findings.push(...(await seriousFindings(buyerPage, 'My reports')));

  // The decisions list has both, by the admin.
  await admin.getByRole('link', { name: 'Decisions' }).click();
  await expect(admin.getByRole('table')).toContainText(FIXTURE.admin.name);
  findings.push(...(await seriousFindings(admin, 'decisions')));
  expect(findings).toEqual([]);
});
