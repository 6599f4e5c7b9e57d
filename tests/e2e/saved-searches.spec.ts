/**
 * Saved searches (issue 33), at a phone's size: a buyer saves a search; a seller, in a browser of
 * their own, is told on Add A Product that a buyer is looking for a phone like theirs and lists
 * it; the buyer's bell counts the alert at once (the live stream), the alert opens the phone, a
 * mail was sent, and the saved search counts the phone as new.
 */
import sharp from 'sharp';
import { createAccountViaApi, uniqueImei } from './api';
import { expect, test } from './console';
import { nextMail } from './mailbox';
import { signedIn } from './signed-in';

const PHONE = { width: 390, height: 844 };

test('a saved search tells its buyer at once of a matching phone a seller lists', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const base = baseURL as string;
  // A word no other test's phone has, so that only this phone matches the search.
  const word = `saver${Date.now().toString(36)}`;
  const model = `Infinix ${word}`;
  const buyer = await createAccountViaApi(base, 'user', 'savedbuyer');
  const seller = await createAccountViaApi(base, 'seller', 'savedseller');

  // The buyer saves their search, offered a name from its words and filters.
  const shopper = await signedIn(browser, buyer.email, '/search', PHONE);
  await shopper.goto(`/search?q=${word}&storage=128+GB&maxPrice=500`);
  await expect(shopper.getByRole('heading', { level: 1 })).toHaveText(`Phones matching “${word}”`);
  await shopper.getByRole('button', { name: 'Save this search' }).click();
  const save = shopper.getByRole('dialog', { name: 'Save this search' });
  await expect(save.getByLabel('Name')).toHaveValue(`${word} · 128 GB · under $500`);
  await expect(save.getByRole('radio', { name: 'At once (bell and e-mail)' })).toBeChecked();
  await save.getByRole('button', { name: 'Save' }).click();
  await expect(shopper.getByText('Search saved')).toBeVisible();
  const bell = shopper.getByRole('navigation', { name: 'Main' }).getByRole('button', {
    name: /^Notifications/,
  });
  await expect(bell).toHaveAccessibleName('Notifications');

  // The seller is told a buyer waits for a phone like theirs once its essentials are set.
  const lister = await signedIn(browser, seller.email, '/dashboard/addaproduct', PHONE);
  await lister.getByLabel('Category').selectOption({ label: 'Infinix' });
  await lister.getByLabel('Model name').fill(model);
  await lister.getByLabel('RAM').selectOption('8 GB');
  await lister.getByLabel('Storage').selectOption('128 GB');
  await lister.getByLabel('Condition').selectOption('Good');
  await lister.getByLabel('Resale price ($)').fill('450');
  await expect(lister.getByText('1 buyer is looking for a phone like this')).toBeVisible();

  await lister.getByLabel('Color').fill('Green');
  await lister.getByLabel('Battery (mAh)').fill('5000');
  await lister.getByLabel('IMEI').fill(uniqueImei());
  await lister.getByLabel('Original price ($)').fill('700');
  await lister.getByLabel('Time used (months)').fill('6');
  await lister.getByLabel('Phone number').fill('+1 206 555 0133');
  await lister.getByLabel('Location').fill('Austin, TX');
  await lister.getByLabel('Description').fill('Kept in a case since day one.');
  const photo = await sharp({
    create: { width: 900, height: 700, channels: 3, background: '#395' },
  })
    .jpeg()
    .toBuffer();
  await lister
    .getByLabel(/^Photos/)
    .setInputFiles({ name: 'green.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(lister.getByText('Photo 1 uploaded.')).toBeVisible();
  await lister.getByRole('button', { name: 'Add A Product' }).click();
  await expect(lister.getByText('Product uploaded sucessfully')).toBeVisible();

  // The buyer's bell counts the alert within seconds, told live, and it opens the phone.
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread', { timeout: 15_000 });
  await bell.click();
  await shopper
    .getByRole('region', { name: 'Notifications' })
    .getByRole('link', { name: new RegExp(word) })
    .click();
  await expect(shopper).toHaveURL(/\/product\/[0-9a-f-]{36}$/);
  await expect(shopper.getByRole('heading', { level: 1 })).toContainText(model);

  // A mail was sent too (a new account's first mail is its welcome).
  const mails = [await nextMail(buyer.email)];
  if (!mails.some((m) => m.text.includes(word))) mails.push(await nextMail(buyer.email));
  expect(mails.some((m) => m.text.includes(word))).toBe(true);

  // The saved search counts the phone as new since the buyer last opened it.
  await shopper.goto('/dashboard/saved-searches');
  const card = shopper.getByRole('listitem', { name: `${word} · 128 GB · under $500` });
  await expect(card).toContainText('1 phone matches now');
  await expect(card).toContainText('1 new');
});
