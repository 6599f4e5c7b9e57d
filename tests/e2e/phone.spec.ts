/**
 * The dashboard on a phone (390×844, issue 22): each table row is a card whose buttons are on
 * screen without scrolling sideways, and the dashboard drawer works by keyboard.
 */
import type { Locator, Page } from '@playwright/test';
import { API_PASSWORD, createAccountViaApi, createSellerWithPhone } from './api';
import { expect, test } from './console';
import { FIXTURE } from './fixture';
import { myProductsRow } from './my-products';

test.use({ viewport: { width: 390, height: 844 } });

async function signIn(page: Page, email: string, password: string, to: string) {
  await page.goto(`/signin?from=${encodeURIComponent(to)}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`${to}$`));
}

/** `control` is on screen across, as is its table: nothing scrolls sideways to reach it. */
async function reachable(page: Page, control: Locator) {
  const screen = await page.evaluate(() => window.innerWidth);
  const box = await control.boundingBox();
  expect(box, 'the control is shown').not.toBeNull();
  expect(box?.x).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(screen);
  // The table the control is in (My Products has a second one, What sells).
  const table = control.locator('xpath=ancestor::table[1]');
  const widths = await table.evaluate((el) => ({
    table: el.scrollWidth,
    frame: (el.parentElement as HTMLElement).clientWidth,
    page: document.documentElement.scrollWidth,
  }));
  expect(widths.table).toBeLessThanOrEqual(widths.frame);
  expect(widths.page).toBeLessThanOrEqual(screen);
}

/** A new buyer who has booked `model` (a new phone of a new seller's), signed in on My Orders. */
async function buyerWithOrder(page: Page, baseURL: string, model: string) {
  const seller = await createSellerWithPhone(baseURL, '04', model);
  const [product] = (await (
    await seller.api.get(`/api/products?email=${encodeURIComponent(seller.email)}`, {
      headers: seller.bearer,
    })
  ).json()) as { _id: string }[];
  const buyer = await createAccountViaApi(baseURL, 'user', 'phone');
  const booked = await buyer.api.post('/api/order', {
    headers: buyer.bearer,
    data: { productId: product?._id, location: 'Station', number: '+1 303 555 0150' },
  });
  expect(booked.ok()).toBe(true);
  await signIn(page, buyer.email, API_PASSWORD, '/dashboard/myorders');
  return page.getByRole('row').filter({ hasText: model });
}

test('a buyer pays from My Orders on a phone, and a paid order offers neither Pay nor Delete', async ({
  page,
  baseURL,
}) => {
  const model = `Oppo Phone Pay ${Date.now().toString(36)}`;
  const order = await buyerWithOrder(page, baseURL as string, model);
  const pay = order.getByRole('link', { name: `Pay for ${model}` });
  await reachable(page, pay);
  await pay.click();
  await expect(page.getByText(`Please pay $250 for your order to buy ${model}`)).toBeVisible();
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiration date').fill('1234');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByText('Congrats! Your payment completed.')).toBeVisible();

  await page.goto('/dashboard/myorders');
  await expect(order.getByText('paid', { exact: true })).toBeVisible();
  await expect(order.getByRole('link', { name: `Pay for ${model}` })).toHaveCount(0);
  await expect(order.getByRole('button', { name: `Delete ${model}` })).toHaveCount(0);
});

test('a buyer deletes an order from My Orders on a phone', async ({ page, baseURL }) => {
  const model = `Oppo Phone Delete ${Date.now().toString(36)}`;
  const order = await buyerWithOrder(page, baseURL as string, model);
  await expect(order).toContainText('Station');
  const remove = order.getByRole('button', { name: `Delete ${model}` });
  await reachable(page, remove);
  await remove.click();
  await page
    .getByRole('dialog', { name: 'Are you sure, you want to delete?' })
    .getByRole('button', { name: 'OK' })
    .click();
  await expect(page.getByText('Successfully deleted one item of order!!')).toBeVisible();
  await expect(order).toHaveCount(0);
  // The empty state says what to do next.
  await expect(page.getByRole('main').getByRole('link', { name: 'Browse phones' })).toHaveAttribute(
    'href',
    '/',
  );
});

test('a seller advertises from My Products on a phone', async ({ page, baseURL }) => {
  const model = `Oppo Phone Advertise ${Date.now().toString(36)}`;
  const seller = await createSellerWithPhone(baseURL as string, '04', model);
  await signIn(page, seller.email, API_PASSWORD, '/dashboard/myproducts');
  const row = myProductsRow(page, model);
  await expect(row).toContainText('Available');
  const advertise = row.getByRole('button', { name: `Avertise ${model}` });
  await reachable(page, advertise);
  await reachable(page, row.getByRole('link', { name: `Photos of ${model}` }));
  await reachable(page, row.getByRole('button', { name: `Delete ${model}` }));
  await advertise.click();
  await page
    .getByRole('dialog', { name: 'Do you want to advertise your product!!?' })
    .getByRole('button', { name: 'OK' })
    .click();
  await expect(page.getByText('Your request for advertising is successfull')).toBeVisible();
});

test('a new seller finds a way to Add A Product from the empty My Products', async ({
  page,
  baseURL,
}) => {
  const seller = await createAccountViaApi(baseURL as string, 'seller', 'empty');
  await signIn(page, seller.email, API_PASSWORD, '/dashboard/myproducts');
  await expect(page.getByText('You have not listed a phone yet.')).toBeVisible();
  await page.getByRole('main').getByRole('link', { name: 'Add A Product' }).click();
  await expect(page).toHaveURL(/\/dashboard\/addaproduct$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Add A Product' })).toBeVisible();
});

test('the admin verifies a seller from All Sellers on a phone', async ({ page, baseURL }) => {
  const seller = await createAccountViaApi(baseURL as string, 'seller', 'phoneverify');
  await signIn(page, FIXTURE.admin.email, FIXTURE.password, '/dashboard/allseller');
  const row = page.getByRole('row').filter({ hasText: seller.email });
  const verify = row.getByRole('button', { name: `verify ${seller.email}` });
  await reachable(page, verify);
  await verify.click();
  await expect(page.getByText('User Verified!')).toBeVisible();
  await expect(row.getByText('Verified', { exact: true })).toBeVisible();
});

test('the dashboard drawer by keyboard: Enter opens it, Tab stays in it, Escape closes it', async ({
  page,
}) => {
  await signIn(page, FIXTURE.buyer.email, FIXTURE.password, '/dashboard/myorders');
  // While the drawer is open the page behind it, this button too, is hidden from assistive
  // technology (decision 062): found with the hidden ones.
  const button = page.getByRole('button', { name: 'Open dashboard menu', includeHidden: true });
  const drawer = page.getByRole('dialog', { name: 'Dashboard menu' });
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await expect(drawer).toBeHidden();

  await button.focus();
  await page.keyboard.press('Enter');
  await expect(drawer).toBeVisible();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  const close = drawer.getByRole('button', { name: 'Close dashboard menu' });
  const orders = drawer.getByRole('link', { name: 'My Orders' });
  const wishList = drawer.getByRole('link', { name: 'My WishList' });
  const savedSearches = drawer.getByRole('link', { name: 'Saved searches' });
  const messages = drawer.getByRole('link', { name: 'Messages' });
  const reports = drawer.getByRole('link', { name: 'My reports' });
  await expect(close).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(orders).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(wishList).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(savedSearches).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(messages).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(reports).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(close).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(reports).toBeFocused();

  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(button).toBeFocused();
  await expect(button).toHaveAttribute('aria-expanded', 'false');

  // Choosing a link goes there and closes the drawer.
  await page.keyboard.press('Enter');
  await expect(drawer).toBeVisible();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(wishList).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard\/mywishlist$/);
  await expect(drawer).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'My WishLisht' })).toBeVisible();
});
