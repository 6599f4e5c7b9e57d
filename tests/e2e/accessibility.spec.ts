/**
 * axe-core on every page and dialog, signed out and in each role, at phone and laptop size, in
 * the light and the dark theme: no finding of impact serious or critical (issue 22). Each role
 * signs in once and goes through both sizes in one page, each page or dialog scanned in both
 * themes as it stands; every finding is collected, so one run lists them all.
 */
import type { Page } from '@playwright/test';
import { uniqueImei } from '../helpers/factories';
import {
  API_PASSWORD,
  bookPhone,
  createAccountViaApi,
  createSellerWithPhone,
  disputedSale,
  handOver,
  listAnotherPhone,
  payOrder,
  productIdOf,
} from './api';
import { seriousFindings } from './axe';
import { expect, test } from './console';
import { FIXTURE } from './fixture';

const SIZES = {
  phone: { width: 390, height: 844 },
  laptop: { width: 1366, height: 900 },
} as const;
type Size = keyof typeof SIZES;

/** Each size in turn, in the same page: a role signs in once. Pages load in the light theme. */
async function eachSize(page: Page, visit: (size: Size) => Promise<void>) {
  for (const size of Object.keys(SIZES) as Size[]) {
    await page.setViewportSize(SIZES[size]);
    await page.emulateMedia({ colorScheme: 'light' });
    await visit(size);
  }
}

/** Every serious finding of the scans made through it, so one run lists them all. */
function findings() {
  const found: string[] = [];
  return {
    found,
    async scan(page: Page, where: string) {
      found.push(...(await seriousFindings(page, where)));
    },
  };
}

/** A page as its visitor sees it: loaded, hydrated, its heading shown. */
async function open(page: Page, path: string, heading?: string | RegExp) {
  await page.goto(path);
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
  const h1 = page.getByRole('heading', { level: 1, ...(heading ? { name: heading } : {}) });
  await expect(h1.first()).toBeVisible();
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/signin');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign out' }),
  ).toBeVisible();
}

const PUBLIC_PAGES = [
  '/',
  '/category/01',
  '/blog',
  '/signin',
  '/signup',
  '/signup/user',
  '/signup/seller',
  '/forgot-password',
  '/reset-password?token=not-a-real-one',
  '/reset-password?error=INVALID_TOKEN',
  '/unsubscribe?u=00000000-0000-4000-8000-000000000000&kind=booking&key=00000000000000000000000000000000',
  '/no-such-page',
];

/** A phone's page (three photos, a verified seller), a sold phone's, and the seller's page. */
async function phoneAndSellerPages(page: Page): Promise<string[]> {
  const res = await page.request.get('/api/category/01');
  const phones = (await res.json()) as { _id: string; modelName: string; sellerId: string }[];
  const featured = phones.find((p) => p.modelName === FIXTURE.featured.modelName);
  const sold = phones.find((p) => p.modelName === FIXTURE.sold.modelName);
  if (!featured || !sold) throw new Error('the fixture phones are missing');
  return [`/product/${featured._id}`, `/product/${sold._id}`, `/seller/${featured.sellerId}`];
}

for (const size of Object.keys(SIZES) as Size[]) {
  test(`signed out, every public page and dialog at ${size} size, light and dark`, async ({
    page,
    consoleErrors,
  }) => {
    test.setTimeout(150_000);
    consoleErrors.allow(/status of 404/); // Chromium logs the 404 page's own status
    const axe = findings();
    await page.setViewportSize(SIZES[size]);
    for (const path of [...PUBLIC_PAGES, ...(await phoneAndSellerPages(page))]) {
      await open(page, path);
      await axe.scan(page, `${path} (${size})`);
    }

    await open(page, '/category/01');
    await page
      .getByRole('article', { name: FIXTURE.plain.modelName })
      .getByRole('button', { name: 'Book Now' })
      .click();
    const prompt = page.getByRole('dialog', {
      name: 'Please login or create an account to book a product!!',
    });
    await expect(prompt).toBeVisible();
    await axe.scan(page, `booking prompt (${size})`);
    await page.keyboard.press('Escape');
    await expect(prompt).toBeHidden();

    await open(page, '/blog');
    await page
      .getByRole('button', { name: /read more/ })
      .first()
      .click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await axe.scan(page, `blog article (${size})`);
    expect(axe.found).toEqual([]);
  });
}

for (const size of Object.keys(SIZES) as Size[]) {
  test(`signed out, the search and its filters (a drawer on a phone), a refused search and a sorted brand page at ${size} size`, async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const axe = findings();
    await page.setViewportSize(SIZES[size]);
    await open(page, '/search?q=iphone&storage=128+GB');
    await axe.scan(page, `/search (${size})`);
    if (size === 'phone') {
      await page.getByRole('button', { name: /^Filters/ }).click();
      await expect(page.getByRole('dialog', { name: 'Filters' })).toBeVisible();
      await axe.scan(page, `filters drawer (${size})`);
      await page.keyboard.press('Escape');
    }
    await open(page, '/search?minPrice=9&maxPrice=1');
    await expect(page.getByRole('alert')).toBeVisible();
    await axe.scan(page, `/search refused (${size})`);
    await open(page, '/category/01?sort=price-asc');
    await axe.scan(page, `/category/01 sorted (${size})`);
    expect(axe.found).toEqual([]);
  });
}

test('a buyer: My Orders, its delete dialog, My WishList, payment, booking, the drawer', async ({
  page,
  baseURL,
}) => {
  // Two sizes, eleven pages and dialogs, an axe scan of each: near two minutes on a loaded
  // two-core machine (it ran out at 120 s once).
  test.setTimeout(180_000);
  const base = baseURL as string;
  const unpaid = `Oppo Axe ${Date.now().toString(36)}`;
  const paid = `Oppo Axe Paid ${Date.now().toString(36)}`;
  const seller = await createSellerWithPhone(base, '04', unpaid);
  const buyer = await createAccountViaApi(base, 'user', 'axe');
  await listAnotherPhone(seller, paid);
  const unpaidPhone = await productIdOf(seller, unpaid);
  const unpaidOrder = await bookPhone(buyer, unpaidPhone);
  const paidOrder = await bookPhone(buyer, await productIdOf(seller, paid));
  await payOrder(buyer, paidOrder);
  await buyer.api.post('/api/wishlist', {
    headers: buyer.bearer,
    data: { productId: unpaidPhone },
  });
  await buyer.api.post('/api/conversations', {
    headers: buyer.bearer,
    data: { productId: unpaidPhone, body: 'Is it unlocked? Call me on 303 555 0142' },
  });
  const fresh = `Oppo Axe Book ${Date.now().toString(36)}`;
  await createSellerWithPhone(base, '04', fresh);

  const axe = findings();
  await signIn(page, buyer.email, API_PASSWORD);
  await eachSize(page, async (size) => {
    await open(page, '/dashboard/myorders', 'My Orders');
    await expect(page.getByRole('row').filter({ hasText: paid })).toContainText('paid');
    await axe.scan(page, `My Orders (${size})`);
    await page.getByRole('button', { name: `Delete ${unpaid}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Are you sure, you want to delete?' });
    await expect(confirm).toBeVisible();
    await axe.scan(page, `delete dialog (${size})`);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();

    if (size === 'phone') {
      await page.getByRole('button', { name: 'Open dashboard menu' }).click();
      await expect(page.getByRole('dialog', { name: 'Dashboard menu' })).toBeVisible();
      await axe.scan(page, `dashboard drawer (${size})`);
      await page.keyboard.press('Escape');
    }

    await open(page, '/dashboard/mywishlist', 'My WishLisht');
    await expect(page.getByRole('row').filter({ hasText: unpaid })).toHaveCount(1);
    await axe.scan(page, `My WishList (${size})`);

    // The bell's panel and the mail settings (issue 20).
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: /^Notifications/ })
      .click();
    await expect(page.getByRole('region', { name: 'Notifications' })).toBeVisible();
    await axe.scan(page, `notifications panel (${size})`);
    await page.keyboard.press('Escape');
    await open(page, '/dashboard/settings', 'Mail settings');
    await axe.scan(page, `mail settings (${size})`);

    // Messages (issue 20): the list and a conversation, with its report dialog.
    await open(page, '/dashboard/messages', 'Messages');
    await axe.scan(page, `messages (${size})`);
    await page.getByRole('link', { name: new RegExp(unpaid) }).click();
    await expect(page.getByRole('list', { name: 'Messages' })).toBeVisible();
    await axe.scan(page, `a conversation (${size})`);

    await open(page, `/dashboard/payment/${unpaidOrder}`);
    await expect(page.getByText(`Please pay $250 for your order to buy ${unpaid}`)).toBeVisible();
    await axe.scan(page, `payment (${size})`);

    await open(page, '/category/04');
    await page
      .getByRole('article', { name: fresh })
      .getByRole('button', { name: 'Book Now' })
      .click();
    const booking = page.getByRole('dialog', { name: `Book for ${fresh}` });
    await expect(booking).toBeVisible();
    await axe.scan(page, `booking form (${size})`);
    await booking.getByRole('button', { name: 'Cancel' }).click();
  });
  expect(axe.found).toEqual([]);
});

test('a buyer: saved searches, the save dialog and the edit dialog (issue 33)', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const buyer = await createAccountViaApi(baseURL as string, 'user', 'axesaved');
  const name = 'Oppo under $300';
  const saved = await buyer.api.post('/api/saved-searches', {
    headers: buyer.bearer,
    data: { name, search: 'brand=04&maxPrice=300', frequency: 'instant' },
  });
  expect(saved.ok()).toBe(true);
  const axe = findings();
  await signIn(page, buyer.email, API_PASSWORD);
  await eachSize(page, async (size) => {
    await open(page, '/search?q=oppo', /oppo/);
    await page.getByRole('button', { name: 'Save this search' }).click();
    const save = page.getByRole('dialog', { name: 'Save this search' });
    await expect(save.getByLabel('Name')).toHaveValue('oppo');
    await axe.scan(page, `save search dialog (${size})`);
    await save.getByRole('button', { name: 'Cancel' }).click();
    await expect(save).toBeHidden();

    await open(page, '/dashboard/saved-searches', 'Saved searches');
    await expect(page.getByRole('listitem', { name })).toBeVisible();
    await axe.scan(page, `saved searches (${size})`);
    await page.getByRole('button', { name: `Edit ${name}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit saved search' });
    await expect(edit).toBeVisible();
    await axe.scan(page, `edit saved search dialog (${size})`);
    await edit.getByRole('button', { name: 'Cancel' }).click();
  });
  expect(axe.found).toEqual([]);
});

/** A seller with three phones, a buyer who booked all three, paid two and received one. */
async function threeSales(base: string, label: string) {
  const stamp = Date.now().toString(36);
  const phones = {
    booked: `Oppo ${label} Booked ${stamp}`,
    paid: `Oppo ${label} Paid ${stamp}`,
    completed: `Oppo ${label} Done ${stamp}`,
  };
  const seller = await createSellerWithPhone(base, '04', phones.booked);
  await listAnotherPhone(seller, phones.paid);
  await listAnotherPhone(seller, phones.completed);
  const buyer = await createAccountViaApi(base, 'user', label.toLowerCase());
  const orders = {
    booked: await bookPhone(buyer, await productIdOf(seller, phones.booked)),
    paid: await bookPhone(buyer, await productIdOf(seller, phones.paid)),
    completed: await bookPhone(buyer, await productIdOf(seller, phones.completed)),
  };
  await payOrder(buyer, orders.paid);
  await payOrder(buyer, orders.completed);
  await handOver(seller, buyer, orders.completed);
  return { seller, buyer, phones, orders };
}

test("a buyer: an order's page booked and paid, and its cancel dialog", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const { buyer, phones, orders } = await threeSales(baseURL as string, 'AxeOrder');
  const axe = findings();
  await signIn(page, buyer.email, API_PASSWORD);
  await eachSize(page, async (size) => {
    await open(page, `/dashboard/orders/${orders.booked}`, `Order: ${phones.booked}`);
    await axe.scan(page, `order page, booked (${size})`);
    await open(page, `/dashboard/orders/${orders.paid}`, `Order: ${phones.paid}`);
    await expect(page.getByText(/^\d{6}$/)).toBeVisible();
    await axe.scan(page, `order page, paid (${size})`);
    await page.getByRole('button', { name: 'Cancel sale' }).click();
    const cancel = page.getByRole('dialog', { name: /^Cancel this sale\?/ });
    await expect(cancel).toBeVisible();
    await axe.scan(page, `cancel dialog (${size})`);
    await cancel.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('button', { name: 'Cancel sale' })).toBeFocused();
  });
  expect(axe.found).toEqual([]);
});

test("a buyer: a handed-over order's rating and its report dialog", async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const { buyer, phones, orders } = await threeSales(baseURL as string, 'AxeDone');
  const axe = findings();
  await signIn(page, buyer.email, API_PASSWORD);
  await eachSize(page, async (size) => {
    await open(page, `/dashboard/orders/${orders.completed}`, `Order: ${phones.completed}`);
    await page.getByRole('radio', { name: '3 stars' }).check();
    await axe.scan(page, `order page, handed over (${size})`);
    await page.getByRole('button', { name: 'Report a problem' }).click();
    const report = page.getByRole('dialog', { name: `Report a problem with ${phones.completed}` });
    await expect(report.getByLabel('What is wrong with the phone?')).toBeFocused();
    await report.getByRole('button', { name: 'Send' }).click();
    await expect(report.getByRole('alert')).toHaveText('Field Required');
    await axe.scan(page, `report dialog (${size})`);
    await page.keyboard.press('Escape');
    await expect(report).toBeHidden();
  });
  expect(axe.found).toEqual([]);
});

test('a buyer: a brand page with phones booked, paid for and received', async ({
  page,
  baseURL,
}) => {
  const { buyer, phones } = await threeSales(baseURL as string, 'AxeBrand');
  const axe = findings();
  await signIn(page, buyer.email, API_PASSWORD);
  await eachSize(page, async (size) => {
    await open(page, '/category/04');
    await expect(
      page.getByRole('article', { name: phones.booked }).getByText('Booked by you'),
    ).toBeVisible();
    await axe.scan(page, `brand page with booked phones (${size})`);
  });
  expect(axe.found).toEqual([]);
});

test('a seller: My Sales and its handover dialog', async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const { seller, phones } = await threeSales(baseURL as string, 'AxeSale');
  const axe = findings();
  await signIn(page, seller.email, API_PASSWORD);
  await eachSize(page, async (size) => {
    await open(page, '/dashboard/mysales', 'My Sales');
    await expect(page.getByRole('row')).toHaveCount(4);
    await axe.scan(page, `My Sales (${size})`);
    await page.getByRole('button', { name: `Confirm handover ${phones.paid}` }).click();
    const handover = page.getByRole('dialog', { name: `Confirm the handover of ${phones.paid}` });
    await handover.getByLabel('Handover code from the buyer').fill('12');
    await handover.getByRole('button', { name: 'Confirm handover' }).click();
    await expect(handover.getByRole('alert')).toHaveText(
      'Enter the six digits the buyer gives you.',
    );
    await axe.scan(page, `handover dialog (${size})`);
    await handover.getByRole('button', { name: 'Cancel' }).click();
    await expect(handover).toBeHidden();
  });
  expect(axe.found).toEqual([]);
});

test("a seller: the rating dialog and a sale's page", async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const { seller, phones, orders } = await threeSales(baseURL as string, 'AxeRate');
  const axe = findings();
  await signIn(page, seller.email, API_PASSWORD);
  await eachSize(page, async (size) => {
    await open(page, '/dashboard/mysales', 'My Sales');
    await page.getByRole('button', { name: `Rate the buyer ${phones.completed}` }).click();
    const rating = page.getByRole('dialog', { name: `Rate the buyer of ${phones.completed}` });
    await rating.getByRole('radio', { name: '2 stars' }).check();
    await axe.scan(page, `rating dialog (${size})`);
    await rating.getByRole('button', { name: 'Cancel' }).click();
    await expect(rating).toBeHidden();

    await open(page, `/dashboard/orders/${orders.paid}`, `Sale: ${phones.paid}`);
    await axe.scan(page, `sale page, paid (${size})`);
  });
  expect(axe.found).toEqual([]);
});

test('a seller: Payouts, its figures by week and the payout account form with its messages', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { seller } = await threeSales(baseURL as string, 'AxePayout');
  const axe = findings();
  await signIn(page, seller.email, API_PASSWORD);
  await eachSize(page, async (size) => {
    await open(page, '/dashboard/payouts', 'Payouts');
    await expect(page.getByRole('img', { name: /^Earnings by week/ })).toBeVisible();
    await page.getByText('The figures by week').click();
    await expect(page.getByRole('columnheader', { name: 'Week of' })).toBeVisible();
    await axe.scan(page, `Payouts (${size})`);
    await page.getByRole('button', { name: 'Save payout account' }).click();
    await expect(page.getByText('Enter your password.')).toBeVisible();
    await axe.scan(page, `payout account form with its messages (${size})`);
  });
  expect(axe.found).toEqual([]);
});

test('the admin: Finance, over 7 and 90 days', async ({ page }) => {
  test.setTimeout(120_000);
  const axe = findings();
  await signIn(page, FIXTURE.admin.email, FIXTURE.password);
  await eachSize(page, async (size) => {
    await open(page, '/dashboard/finance', 'Finance');
    await expect(page.getByRole('img', { name: /^Sales volume and fees by day/ })).toBeVisible();
    await axe.scan(page, `Finance (${size})`);
    await open(page, '/dashboard/finance?days=90', 'Finance');
    await expect(page.getByRole('heading', { name: 'The last 90 days' })).toBeVisible();
    await axe.scan(page, `Finance, 90 days (${size})`);
  });
  expect(axe.found).toEqual([]);
});

test('the admin: Disputes, a disputed sale and the refund dialog', async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const model = `Oppo Axe Dispute ${Date.now().toString(36)}`;
  const { orderId } = await disputedSale(baseURL as string, model);
  const axe = findings();
  await signIn(page, FIXTURE.admin.email, FIXTURE.password);
  await eachSize(page, async (size) => {
    await open(page, '/dashboard/disputes', 'Disputes');
    await axe.scan(page, `Disputes (${size})`);
    await page.getByRole('button', { name: `Refund ${model}` }).click();
    const confirm = page.getByRole('dialog', { name: /^Refund .* for Oppo Axe Dispute/ });
    await expect(confirm).toBeVisible();
    await axe.scan(page, `refund dialog (${size})`);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await open(page, `/dashboard/orders/${orderId}`, `Sale: ${model}`);
    await axe.scan(page, `disputed sale page (${size})`);
  });
  expect(axe.found).toEqual([]);
});

test("a seller: Add A Product, My Products, its advertise dialog and a phone's photos", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const axe = findings();
  // The fixture's plain seller has a sold phone and phones for sale: both kinds of row.
  await signIn(page, FIXTURE.plainSeller.email, FIXTURE.password);
  await eachSize(page, async (size) => {
    await open(page, '/dashboard/addaproduct', 'Add A Product');
    await axe.scan(page, `Add A Product (${size})`);
    await open(page, '/dashboard/myproducts', 'My Products');
    await axe.scan(page, `My Products (${size})`);
    await page.getByRole('button', { name: `Avertise ${FIXTURE.plain.modelName}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Do you want to advertise your product!!?' });
    await expect(confirm).toBeVisible();
    await axe.scan(page, `advertise dialog (${size})`);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await page.getByRole('link', { name: `Photos of ${FIXTURE.plain.modelName}` }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: `Photos of ${FIXTURE.plain.modelName}` }),
    ).toBeVisible();
    await axe.scan(page, `a phone's photos (${size})`);
  });
  expect(axe.found).toEqual([]);
});

test('the admin: All Sellers, All Buyers, Banned Addresses, Blocked IMEIs and their dialogs', async ({
  page,
}) => {
  // Two sizes, four pages and three dialogs, light and dark scans: it ran out at 90 s once on a
  // loaded two-core machine, still going.
  test.setTimeout(150_000);
  const axe = findings();
  const address = `axe-banned-${Date.now()}@e2e.example`;
  await signIn(page, FIXTURE.admin.email, FIXTURE.password);
  await open(page, '/dashboard/banned', 'Banned Addresses');
  await page.getByLabel('E-mail address to ban').fill(address);
  await page.getByRole('button', { name: 'Ban', exact: true }).click();
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('row').filter({ hasText: address })).toHaveCount(1);
  // A blocked IMEI, so its table has a row (issue 19).
  const imei = uniqueImei();
  await open(page, '/dashboard/blocked-imeis', 'Blocked IMEIs');
  await page.getByLabel('IMEI', { exact: true }).fill(imei);
  await page.getByLabel('Reason', { exact: true }).fill('Reported stolen');
  await page.getByRole('button', { name: 'Block', exact: true }).click();
  await expect(page.getByText(`The IMEI ending in ${imei.slice(-4)} is blocked.`)).toBeVisible();

  await eachSize(page, async (size) => {
    await open(page, '/dashboard/allseller', 'All Sellers');
    await axe.scan(page, `All Sellers (${size})`);
    await open(page, '/dashboard/allbuyer', 'All Buyers');
    await axe.scan(page, `All Buyers (${size})`);
    await open(page, '/dashboard/banned', 'Banned Addresses');
    await axe.scan(page, `Banned Addresses (${size})`);
    await page.getByLabel('E-mail address to ban').fill(`nobody-${Date.now()}@e2e.example`);
    await page.getByRole('button', { name: 'Ban', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: /^Ban nobody-/ });
    await expect(confirm).toBeVisible();
    await axe.scan(page, `ban dialog (${size})`);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await open(page, '/dashboard/blocked-imeis', 'Blocked IMEIs');
    await page.getByRole('button', { name: 'Block', exact: true }).click();
    await expect(page.getByText('Enter its 15 digits', { exact: true })).toBeVisible();
    await axe.scan(page, `Blocked IMEIs with its messages (${size})`);
    await page
      .getByRole('button', { name: `Unblock IMEI ending in ${imei.slice(-4)}` })
      .first()
      .click();
    const unblock = page.getByRole('dialog', { name: /^Unblock the IMEI ending in/ });
    await expect(unblock).toBeVisible();
    await axe.scan(page, `unblock dialog (${size})`);
    await unblock.getByRole('button', { name: 'Cancel' }).click();
    await expect(unblock).toBeHidden();
  });
  expect(axe.found).toEqual([]);
});
