/**
 * The bell (issue 20): a seller is told of a booking, opens it from the bell, and the count
 * clears; the mail settings keep what is turned off.
 */
import { API_PASSWORD, createAccountViaApi, createSellerWithPhone } from './api';
import { expect, test } from './console';

test('the bell counts a booking, leads to it and clears; mail settings keep their choices', async ({
  page,
  baseURL,
}) => {
  const model = `Bell Phone ${Date.now().toString(36)}`;
  const seller = await createSellerWithPhone(baseURL as string, '04', model);
  const buyer = await createAccountViaApi(baseURL as string, 'user', 'bellbuyer');

  await page.goto('/signin');
  await page.getByLabel('Email').fill(seller.email);
  await page.getByLabel('Password').fill(API_PASSWORD);
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
  const bell = page.getByRole('navigation', { name: 'Main' }).getByRole('button', {
    name: /^Notifications/,
  });
  await expect(bell).toHaveAccessibleName('Notifications');

  const mine = await seller.api.get(`/api/products?email=${encodeURIComponent(seller.email)}`, {
    headers: seller.bearer,
  });
  const [phone] = (await mine.json()) as { _id: string }[];
  const booked = await buyer.api.post('/api/order', {
    headers: buyer.bearer,
    data: { productId: phone?._id, location: 'Cafe on Main St', number: '+1 303 555 0199' },
  });
  expect(booked.ok()).toBe(true);

  // Told live: sooner than the half minute after which the bell would ask on its own.
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
  await bell.click();
  const panel = page.getByRole('region', { name: 'Notifications' });
  const notice = panel.getByRole('link', { name: new RegExp(`booked your ${model}`) });
  await expect(notice).toBeVisible();
  await notice.click();
  await expect(page).toHaveURL(/\/dashboard\/mysales$/);
  await expect(bell).toHaveAccessibleName('Notifications');

  await bell.click();
  await panel.getByRole('link', { name: 'Mail settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Mail settings' })).toBeVisible();
  const bookings = page.getByLabel('someone books one of my phones');
  await expect(bookings).toBeChecked();
  await bookings.uncheck();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Your mail settings are saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('someone books one of my phones')).not.toBeChecked();
  await expect(page.getByLabel('a buyer pays for one of my phones')).toBeChecked();
});
