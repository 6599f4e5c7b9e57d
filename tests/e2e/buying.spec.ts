import { API_PASSWORD, createAccountViaApi, createSellerWithPhone } from './api';
import { expect, test } from './console';
import { FIXTURE } from './fixture';

test('a signed-out visitor is asked to sign in to wish-list or book', async ({ page }) => {
  await page.goto('/category/01');
  const card = page.getByRole('article', { name: FIXTURE.plain.modelName });
  await card.getByRole('button', { name: 'Add to Wish List' }).click();
  await expect(
    page.getByText('Please login or create an account to make a wish list!!'),
  ).toBeVisible();
  await card.getByRole('button', { name: 'Book Now' }).click();
  await expect(
    page.getByRole('dialog', { name: 'Please login or create an account to book a product!!' }),
  ).toBeVisible();
});

test('a buyer wish-lists and books a phone, then finds both in the dashboard', async ({
  page,
  baseURL,
  consoleErrors,
}) => {
  consoleErrors.allow(/status of 409/);
  const model = `Oppo Buy ${Date.now().toString(36)}`;
  await createSellerWithPhone(baseURL as string, '04', model);
  const buyer = await createAccountViaApi(baseURL as string, 'user', 'buyer');
  await page.goto('/signin?from=%2Fcategory%2F04');
  await page.getByLabel('Email').fill(buyer.email);
  await page.getByLabel('Password').fill(API_PASSWORD);
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();

  const card = page.getByRole('article', { name: model });
  await card.getByRole('button', { name: 'Add to Wish List' }).click();
  await expect(page.getByText('Added to wish list!!')).toBeVisible();
  // Now on the wish list, the card says so instead of offering to add it again (issue 31).
  await expect(card.getByText('On your wish list')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Add to Wish List' })).toHaveCount(0);

  // A second tab, open before the booking, still offers Book Now.
  const otherTab = await page.context().newPage();
  await otherTab.goto('/category/04');
  const sameCard = otherTab.getByRole('article', { name: model });
  await expect(sameCard.getByRole('button', { name: 'Book Now' })).toBeEnabled();

  await card.getByRole('button', { name: 'Book Now' }).click();
  const dialog = page.getByRole('dialog', { name: `Book for ${model}` });
  await expect(dialog.getByLabel('Name')).toHaveValue(buyer.name);
  await expect(dialog.getByLabel('Email')).toHaveValue(buyer.email);
  await expect(dialog.getByLabel('Price')).toHaveValue('$250');
  await expect(dialog.getByLabel('Model')).toHaveAttribute('readonly', '');
  // The page behind does not scroll while the form is open (daisyUI's lock, its custom
  // properties registered as not inherited: decision 058), and scrolls again once it closes.
  const rootOverflow = () =>
    page.evaluate(() => getComputedStyle(document.documentElement).overflow);
  expect(await rootOverflow()).toBe('hidden');
  await dialog.getByRole('button', { name: 'Order' }).click();
  await expect(dialog.getByText('Field Required')).toHaveCount(2);
  await expect(dialog.getByPlaceholder('Meeting Location')).toBeVisible();
  await dialog.getByPlaceholder('Meeting Location').fill('City Library');
  await dialog.getByLabel(/Phone number/).fill('+1 303 555 0142');
  await dialog.getByRole('button', { name: 'Order' }).click();
  await expect(page.getByText('Your Booking is confirmed.')).toBeVisible();
  await expect(dialog).toBeHidden();
  expect(await rootOverflow()).not.toBe('hidden');

  // This tab offers paying for it instead of booking it again; the other tab, open on the same
  // brand page, is told live (issue 31) and offers no second booking either, without a reload.
  // (A second booking that races past it is refused 'Already Booked': tests/api/buying.test.ts.)
  await expect(card.getByText('Booked by you')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Book Now' })).toHaveCount(0);
  await expect(sameCard.getByText('Booked by you')).toBeVisible();
  await expect(sameCard.getByRole('button', { name: 'Book Now' })).toHaveCount(0);
  await otherTab.close();

  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'My Orders' })).toBeVisible();
  const order = page.getByRole('row').filter({ hasText: model });
  await expect(order).toContainText('$250');
  await expect(order).toContainText('City Library');
  await expect(order.getByRole('link', { name: `Pay for ${model}` })).toHaveAttribute(
    'href',
    /\/dashboard\/payment\/[0-9a-f-]{36}$/,
  );

  await page.goto('/dashboard/mywishlist');
  await expect(page.getByRole('heading', { level: 1, name: 'My WishLisht' })).toBeVisible();
  const wished = page.getByRole('row').filter({ hasText: model });
  await expect(wished.getByRole('link', { name: `Book Now ${model}` })).toHaveAttribute(
    'href',
    '/category/04',
  );
  await wished.getByRole('button', { name: `Delete ${model}` }).click();
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Successfully deleted one item', { exact: true })).toBeVisible();
  await expect(wished).toHaveCount(0);

  await page.goto('/dashboard/myorders');
  await order.getByRole('button', { name: `Delete ${model}` }).click();
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Successfully deleted one item of order!!')).toBeVisible();
  await expect(order).toHaveCount(0);
});

async function bookAsNewBuyer(
  page: import('@playwright/test').Page,
  baseURL: string,
  model: string,
) {
  await createSellerWithPhone(baseURL, '04', model);
  const buyer = await createAccountViaApi(baseURL, 'user', 'payer');
  await page.goto('/signin?from=%2Fcategory%2F04');
  await page.getByLabel('Email').fill(buyer.email);
  await page.getByLabel('Password').fill(API_PASSWORD);
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
  await page
    .getByRole('article', { name: model })
    .getByRole('button', { name: 'Book Now' })
    .click();
  const dialog = page.getByRole('dialog', { name: `Book for ${model}` });
  await dialog.getByPlaceholder('Meeting Location').fill('Station');
  await dialog.getByLabel(/Phone number/).fill('+1 303 555 0150');
  await dialog.getByRole('button', { name: 'Order' }).click();
  await expect(page.getByText('Your Booking is confirmed.')).toBeVisible();
  await page.goto('/dashboard/myorders');
  await page.getByRole('link', { name: `Pay for ${model}` }).click();
  await expect(page.getByText(`Please pay $250 for your order to buy ${model}`)).toBeVisible();
}

async function enterCard(page: import('@playwright/test').Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiration date').fill('1234');
  await page.getByLabel('CVC').fill('123');
  await expect(page.getByRole('button', { name: 'Pay' })).toBeEnabled();
  await page.getByRole('button', { name: 'Pay' }).click();
}

test('a buyer pays with a test card, sees the transaction id and "paid", and the phone is sold', async ({
  page,
  baseURL,
}) => {
  const model = `Oppo Pay ${Date.now().toString(36)}`;
  await bookAsNewBuyer(page, baseURL as string, model);
  await enterCard(page, '4242 4242 4242 4242');
  await expect(page.getByText('Congrats! Your payment completed.')).toBeVisible();
  await expect(page.getByText(/Transaction id: pi_/)).toBeVisible();

  await page.goto('/dashboard/myorders');
  const row = page.getByRole('row').filter({ hasText: model });
  await expect(row.getByText('paid', { exact: true })).toBeVisible();
  // A paid order is no longer deleted; its Action opens the sale, where it is handed over.
  await expect(row.getByRole('button', { name: /Delete/ })).toHaveCount(0);
  await expect(row.getByRole('link', { name: /^Open the sale/ })).toHaveAttribute(
    'href',
    /\/dashboard\/orders\/[0-9a-f-]{36}$/,
  );
  await page.goto('/category/04');
  const card = page.getByRole('article', { name: model });
  await expect(card.getByText('Sold', { exact: true })).toBeVisible();
  // Its buyer sees it is theirs and finds the order (with the handover code), not Book Now.
  await expect(card.getByText('Booked by you')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Book Now' })).toHaveCount(0);
  await expect(card.getByRole('link', { name: `See your order for ${model}` })).toHaveAttribute(
    'href',
    /\/dashboard\/orders\/[0-9a-f-]{36}$/,
  );
});

test('a declined card shows its message in red and records nothing', async ({
  page,
  baseURL,
  consoleErrors,
}) => {
  consoleErrors.allow(/status of 402/);
  const model = `Oppo Decline ${Date.now().toString(36)}`;
  await bookAsNewBuyer(page, baseURL as string, model);
  await enterCard(page, '4000 0000 0000 0002');
  const alert = page.getByRole('alert');
  await expect(alert).toHaveText('Your card was declined.');
  await expect(alert).toHaveClass(/text-error/);
  await page.goto('/dashboard/myorders');
  await expect(page.getByRole('link', { name: `Pay for ${model}` })).toBeVisible();
});
