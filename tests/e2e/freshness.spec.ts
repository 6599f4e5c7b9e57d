/**
 * What a person sees is current (issue 31, decision 043): a page seen once is not shown again as
 * it was. In two browsers: the seller lowers a price while the buyer, who saw the phone's page,
 * its search card and their wish list before, comes back to each of them without a reload; and a
 * buyer books and pays while the seller looks at My Sales.
 */
import {
  type Account,
  bookPhone,
  createAccountViaApi,
  createSellerWithPhone,
  payOrder,
  productIdOf,
} from './api';
import { expect, test } from './console';
import { ofThePhone } from './phone-page';
import { signedIn } from './signed-in';

/** The seller changes the phone's resale price, as the Edit page sends it. */
async function setPrice(seller: Account, productId: string, resellPrice: number) {
  const res = await seller.api.get(`/api/products/${productId}`);
  const { product } = (await res.json()) as { product: Record<string, unknown> };
  const edited = await seller.api.put(`/api/products/${productId}`, {
    headers: seller.bearer,
    data: {
      categoryId: product.categoryId,
      modelName: product.modelName,
      originalPrice: product.originalPrice,
      resellPrice,
      location: product.location,
      description: product.description,
      timeUsed: product.timeUsed,
      condition: product.condition,
      sellerNumber: '+1 303 555 0100',
      specificatons: product.specificatons,
    },
  });
  expect(edited.ok(), await edited.text()).toBe(true);
}

const LAPTOP = { width: 1280, height: 800 };

test('a lowered price shows wherever the buyer saw the phone before, without a reload', async ({
  browser,
  baseURL,
}) => {
  const model = `Fresh Phone ${Date.now().toString(36)}`;
  const seller = await createSellerWithPhone(baseURL as string, '04', model);
  const buyer = await createAccountViaApi(baseURL as string, 'user', 'fresh');
  const productId = await productIdOf(seller, model);

  // The buyer sees the phone's page, keeps it, sees their wish list and a search: all in one
  // visit, every later page from the app's own links (what the browser keeps is on trial).
  const page = await signedIn(browser, buyer.email, `/product/${productId}`, LAPTOP);
  const main = page.getByRole('main');
  await expect(main).toContainText(/Resale price \$250/);
  await ofThePhone(page, main.getByRole('button', { name: 'Add to Wish List' })).click();
  const wishList = async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Dashboard' })
      .click();
    await page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'My WishList' })
      .click();
    return main.getByRole('row').filter({ hasText: model });
  };
  await expect(await wishList()).toContainText('$250');
  const search = async () => {
    await page.locator('#nav-search-wide').fill(model);
    await page.locator('#nav-search-wide').press('Enter');
    await expect(page).toHaveURL(/\/search\?/);
    return main.getByRole('article').filter({ hasText: model });
  };
  const card = await search();
  await expect(card).toContainText('$250');

  // The seller lowers it. The search card on screen updates in place.
  await setPrice(seller, productId, 120);
  await expect(card).toContainText('$120');

  // From the bell: the phone's page, seen before at $250, shows $120 at once.
  const bell = page.getByRole('navigation', { name: 'Main' }).getByRole('button', {
    name: /^Notifications/,
  });
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
  await bell.click();
  await page
    .getByRole('region', { name: 'Notifications' })
    .getByRole('link', { name: new RegExp(model) })
    .click();
  await expect(page).toHaveURL(new RegExp(`/product/${productId}$`));
  await expect(main).toContainText(/Resale price \$120/);
  await expect(main).not.toContainText(/Resale price \$250/);

  // Lowered again while the phone's page is open: it changes in place.
  await setPrice(seller, productId, 110);
  await expect(main).toContainText(/Resale price \$110/);

  // The wish list, seen at $250, and the phone from it.
  const row = await wishList();
  await expect(row).toContainText('$110');
  await expect(row).not.toContainText('$250');
  await row.getByRole('link', { name: model, exact: true }).click();
  await expect(main).toContainText(/Resale price \$110/);

  // The same search again: its card, seen at $120, is the new price.
  await expect(await search()).toContainText('$110');
});

test('a booking and a payment appear on the seller’s open My Sales within seconds', async ({
  browser,
  baseURL,
}) => {
  const model = `Sales Phone ${Date.now().toString(36)}`;
  const seller = await createSellerWithPhone(baseURL as string, '04', model);
  const buyer = await createAccountViaApi(baseURL as string, 'user', 'payer');
  const productId = await productIdOf(seller, model);

  const page = await signedIn(browser, seller.email, '/dashboard/mysales', LAPTOP);
  const main = page.getByRole('main');
  await expect(main).not.toContainText(model);

  const orderId = await bookPhone(buyer, productId);
  const sale = main.getByRole('row').filter({ hasText: model });
  await expect(sale).toBeVisible();
  await payOrder(buyer, orderId);
  await expect(sale).toContainText('Paid, waiting for the handover');

  // Clicking My Sales in the menu again shows the same, current list.
  await page
    .getByRole('navigation', { name: 'Dashboard' })
    .getByRole('link', { name: /My Sales/ })
    .click();
  await expect(main.getByRole('row').filter({ hasText: model })).toContainText(
    'Paid, waiting for the handover',
  );
});
