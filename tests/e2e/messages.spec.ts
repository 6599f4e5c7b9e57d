/**
 * Messages (issue 20): a buyer asks from a phone's page, the seller sees it arrive and answers,
 * and the buyer sees the answer arrive, both without reloading; a phone number in a message is
 * hidden before the buyer pays; a message asking to pay outside comes with a warning (issue 34).
 */
import { createAccountViaApi, createSellerWithPhone } from './api';
import { seriousFindings } from './axe';
import { expect, test } from './console';
import { signedIn } from './signed-in';

test('a buyer asks, the seller answers, both see it live; a number is hidden before payment', async ({
  browser,
  baseURL,
}) => {
  const model = `Chat Phone ${Date.now().toString(36)}`;
  const seller = await createSellerWithPhone(baseURL as string, '04', model);
  const buyer = await createAccountViaApi(baseURL as string, 'user', 'asker');
  const mine = await seller.api.get(`/api/products?email=${encodeURIComponent(seller.email)}`, {
    headers: seller.bearer,
  });
  const [phone] = (await mine.json()) as { _id: string }[];

  const sellerPage = await signedIn(browser, seller.email, '/dashboard/messages');
  await expect(sellerPage.getByText('No messages yet.')).toBeVisible();

  const buyerPage = await signedIn(browser, buyer.email, `/product/${phone?._id}`);
  const ask = buyerPage.getByRole('region', { name: 'Ask the seller' });
  await ask.getByLabel('Your message').fill('Is it unlocked? Call me on 303 555 0142');
  await ask.getByRole('button', { name: 'Send' }).click();
  await expect(buyerPage).toHaveURL(/\/dashboard\/messages\/[0-9a-f-]{36}$/);
  const buyerThread = buyerPage.getByRole('list', { name: 'Messages' });
  await expect(buyerThread).toContainText('Is it unlocked? Call me on [hidden until payment]');
  await expect(
    buyerPage.getByText(/contact details are hidden|are hidden until the buyer pays/).first(),
  ).toBeVisible();

  // The seller's list shows it without a reload, told live.
  const conversation = sellerPage.getByRole('link', { name: new RegExp(model) });
  await expect(conversation).toBeVisible();
  await expect(conversation).toContainText('New');
  const menuEntry = sellerPage
    .getByRole('navigation', { name: 'Dashboard' })
    .getByRole('link', { name: /^Messages/ });
  await expect(menuEntry).toHaveAccessibleName('Messages 1 unread');
  await conversation.click();
  await expect(menuEntry).toHaveAccessibleName('Messages');
  const sellerThread = sellerPage.getByRole('list', { name: 'Messages' });
  await expect(sellerThread).toContainText('[hidden until payment]');
  await expect(sellerThread).not.toContainText('555');
  await sellerPage.getByLabel('Your message').fill('Yes, unlocked for every carrier.');
  await sellerPage.getByRole('button', { name: 'Send' }).click();
  await expect(sellerThread).toContainText('Yes, unlocked for every carrier.');

  // And the buyer sees the answer arrive.
  await expect(buyerThread).toContainText('Yes, unlocked for every carrier.');
  await expect(
    buyerThread.getByRole('listitem').filter({ hasText: 'Yes, unlocked' }),
  ).toContainText(seller.name);

  // Asked to pay outside, the buyer is warned under that message, legibly in either theme.
  await sellerPage.getByLabel('Your message').fill('Or pay me by Zelle and skip the fee.');
  await sellerPage.getByRole('button', { name: 'Send' }).click();
  const asked = buyerThread.getByRole('listitem').filter({ hasText: 'pay me by Zelle' });
  await expect(asked).toContainText(
    'Warning: Never pay outside Phone Market: your money is only protected here.',
  );
  expect(await seriousFindings(buyerPage, 'a conversation with a warning')).toEqual([]);
});
