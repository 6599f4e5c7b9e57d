/**
 * The search (issue 18): from the navigation bar to /search, narrowed with filters, sorted, a
 * phone opened and back to the same place in the list; a brand page's filters and sort; the
 * page read before JavaScript runs; a link the search cannot take. At a phone's and a laptop's
 * width, with no error in the console (hydration included).
 */
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { type Account, createAccountViaApi, uniqueImei } from './api';
import { expect, test } from './console';
import { FIXTURE } from './fixture';

const SIZES = {
  phone: { width: 375, height: 812 },
  laptop: { width: 1366, height: 900 },
} as const;

/** How many phones a test lists: more than a page (24), so "Show more" has a second one. */
const PHONES = 26;

/** A word no other phone has, so a search for it finds this test's phones and no others. */
const uniqueWord = () =>
  `zefir${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;

/**
 * A seller's `PHONES` phones named after `word`: phone i costs 100 + 10·i dollars, the odd ones
 * have 256 GB, the even ones 128 GB. Phone 0 is listed first, so newest first it comes last.
 */
async function listPhones(baseURL: string, word: string): Promise<Account> {
  const seller = await createAccountViaApi(baseURL, 'seller', 'search');
  const buffer = await sharp({
    create: { width: 800, height: 600, channels: 3, background: '#468' },
  })
    .jpeg()
    .toBuffer();
  const upload = await seller.api.post('/api/images', {
    headers: seller.bearer,
    multipart: { image: { name: 'phone.jpg', mimeType: 'image/jpeg', buffer } },
  });
  expect(upload.ok()).toBe(true);
  const image = ((await upload.json()) as { data: { url: string } }).data.url;
  for (let i = 0; i < PHONES; i++) {
    const res = await seller.api.post('/api/products', {
      headers: seller.bearer,
      data: {
        categoryId: '02',
        modelName: `Galaxy ${word} ${i}`,
        image,
        originalPrice: 900,
        resellPrice: 100 + 10 * i,
        location: 'Portland, OR',
        description: 'Listed for the search test.',
        timeUsed: 6,
        condition: 'Good',
        sellerNumber: '+1 503 555 0100',
        specificatons: {
          ram: '8 GB',
          storage: i % 2 === 1 ? '256 GB' : '128 GB',
          color: 'Black',
          battery: 4000,
        },
        imei: uniqueImei(),
      },
    });
    expect(res.ok(), await res.text()).toBe(true);
  }
  return seller;
}

const status = (page: Page) => page.getByRole('main').getByRole('status');
const articles = (page: Page) => page.getByRole('main').getByRole('article');
/** Each card's resale price, the first dollar amount on it. */
const prices = async (page: Page) =>
  (await articles(page).allTextContents()).map((text) =>
    Number(/\$(\d+(?:\.\d+)?)/.exec(text)?.[1] ?? Number.NaN),
  );

/**
 * The filters and the count beside them: on a laptop the sidebar and the page's count; on a
 * phone the drawer its button opens, which says the count too (the page behind it is inert).
 */
async function openFilters(page: Page, size: keyof typeof SIZES) {
  if (size === 'laptop') {
    const form = page.getByRole('form', { name: 'Filters' });
    await expect(form).toBeVisible();
    return { form, count: status(page), done: async () => {} };
  }
  await page.getByRole('button', { name: /^Filters/ }).click();
  const drawer = page.getByRole('dialog', { name: 'Filters' });
  await expect(drawer).toBeVisible();
  return {
    form: drawer.getByRole('form', { name: 'Filters' }),
    count: drawer.getByRole('status'),
    done: async () => {
      await drawer.getByRole('button', { name: 'Show phones' }).click();
      await expect(drawer).toBeHidden();
    },
  };
}

const hydrated = (page: Page) => expect(page.locator('html[data-hydrated]')).toHaveCount(1);

for (const size of Object.keys(SIZES) as (keyof typeof SIZES)[]) {
  test(`at ${size} size: search from the bar, narrow, sort, open a phone and come back to the same place`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const word = uniqueWord();
    await listPhones(baseURL as string, word);
    await page.setViewportSize(SIZES[size]);

    await page.goto('/blog');
    await hydrated(page);
    const box = page.getByRole('searchbox', { name: 'Search phones' });
    await box.fill(word);
    await box.press('Enter');
    await expect(page).toHaveURL(`/search?q=${word}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Phones matching “${word}”`);
    await expect(status(page)).toHaveText(`${PHONES} phones`);
    await expect(articles(page)).toHaveCount(24);
    await expect(box).toHaveValue(word);

    // Narrow: a box applies at once, a typed price once typing pauses.
    let filters = await openFilters(page, size);
    await filters.form.getByRole('checkbox', { name: '256 GB' }).check();
    await expect(page).toHaveURL(`/search?q=${word}&storage=256+GB`);
    await expect(filters.count).toHaveText(`${PHONES / 2} phones`);
    await filters.form.getByRole('spinbutton', { name: 'Max' }).fill('200');
    await expect(page).toHaveURL(`/search?q=${word}&storage=256+GB&maxPrice=200`);
    // 256 GB at $200 or less: phones 1, 3, 5, 7 and 9 ($110 … $190).
    await expect(filters.count).toHaveText('5 phones');
    await filters.done();
    await expect(status(page)).toHaveText('5 phones');
    if (size === 'phone') {
      await expect(page.getByRole('button', { name: 'Filters (2)' })).toBeVisible();
    }

    await page.getByRole('combobox', { name: 'Sort by' }).selectOption('price-desc');
    await expect(page).toHaveURL(`/search?q=${word}&storage=256+GB&maxPrice=200&sort=price-desc`);
    await expect.poll(() => prices(page)).toEqual([190, 170, 150, 130, 110]);
    await page.getByRole('combobox', { name: 'Sort by' }).selectOption('price-asc');
    await expect.poll(() => prices(page)).toEqual([110, 130, 150, 170, 190]);

    // Back and forward: the form shows the URL's filters.
    await page.goBack();
    await expect(page).toHaveURL(/sort=price-desc$/);
    await expect(page.getByRole('combobox', { name: 'Sort by' })).toHaveValue('price-desc');
    await page.goBack();
    await page.goBack();
    await expect(page).toHaveURL(`/search?q=${word}&storage=256+GB`);
    filters = await openFilters(page, size);
    await expect(filters.form.getByRole('spinbutton', { name: 'Max' })).toHaveValue('');
    await expect(filters.form.getByRole('checkbox', { name: '256 GB' })).toBeChecked();
    await filters.form.getByRole('link', { name: 'Clear filters' }).click();
    await expect(page).toHaveURL(`/search?q=${word}`);
    await expect(filters.count).toHaveText(`${PHONES} phones`);
    if (size === 'phone') {
      // Escape closes the drawer and gives focus back to its button.
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog', { name: 'Filters' })).toBeHidden();
      await expect(page.getByRole('button', { name: 'Filters' })).toBeFocused();
    }

    // The whole list, then a phone far down it, then back to the same place.
    await page.getByRole('button', { name: 'Show more phones' }).click();
    await expect(articles(page)).toHaveCount(PHONES);
    const far = page.getByRole('article', { name: `Galaxy ${word} 1`, exact: true });
    await far.scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(1000);
    await far.locator('a[href^="/product/"]').first().click();
    await expect(page).toHaveURL(/\/product\//);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Galaxy ${word} 1`);
    await page.goBack();
    await expect(page).toHaveURL(`/search?q=${word}`);
    // Both pages are still there (from the query cache), and so is the scroll.
    await expect(articles(page)).toHaveCount(PHONES);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(scrolled - 50);
    expect(await page.evaluate(() => window.scrollY)).toBeLessThan(scrolled + 50);
    await expect(far).toBeInViewport();
  });
}

test('a brand page names its brand, sorts, and leaves out sold phones when asked', async ({
  page,
}) => {
  await page.goto('/category/01');
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
  await expect(page.getByRole('main').getByText('Apple', { exact: true })).toBeVisible();
  const sold = page.getByRole('article', { name: FIXTURE.sold.modelName });
  await expect(sold).toBeVisible();
  const form = page.getByRole('form', { name: 'Filters' });
  await expect(form).toBeVisible();
  await expect(form.getByRole('group', { name: 'Brand' })).toHaveCount(0);
  await expect(form.getByRole('checkbox', { name: 'Include sold phones' })).toBeChecked();

  await page.getByRole('combobox', { name: 'Sort by' }).selectOption('price-desc');
  await expect(page).toHaveURL('/category/01?sort=price-desc');
  await expect(status(page)).toHaveText(/^\d+ phones?$/);
  const desc = await prices(page);
  expect(desc).toEqual([...desc].sort((a, b) => b - a));
  await expect(sold).toBeVisible();

  await form.getByRole('checkbox', { name: 'Include sold phones' }).uncheck();
  await expect(page).toHaveURL('/category/01?includeSold=false&sort=price-desc');
  await expect(sold).toHaveCount(0);
  await expect(page.getByRole('article', { name: FIXTURE.featured.modelName })).toBeVisible();

  await page.goBack();
  await page.goBack();
  await expect(page).toHaveURL('/category/01');
  await expect(status(page)).toHaveText('');
  await expect(sold).toBeVisible();
});

test('a link the search cannot take says why, instead of a blank page', async ({ page }) => {
  await page.goto('/search?q=iphone&minPrice=500&maxPrice=100');
  await hydrated(page);
  await expect(page.getByRole('alert')).toContainText('minPrice must not be above maxPrice');
  await page.getByRole('link', { name: 'Start again' }).click();
  await expect(page).toHaveURL('/search');
  await expect(status(page)).toHaveText(/^\d+ phones?$/);

  await page.goto('/search?q=iphone&brand=99');
  await expect(page.getByText(/left out: brand=99\./)).toBeVisible();
  await expect(page.getByRole('article', { name: FIXTURE.featured.modelName })).toBeVisible();
});

test('a typo and another word order still find the phone, and the page says they are close', async ({
  page,
}) => {
  await page.goto('/search?q=pro+iphone+14');
  await expect(page.getByRole('article', { name: FIXTURE.featured.modelName })).toBeVisible();
  await page.goto('/search?q=iphnoe');
  await expect(status(page)).toContainText('Nothing matches “iphnoe” as typed');
  await expect(page.getByRole('article', { name: FIXTURE.featured.modelName })).toBeVisible();
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the results come rendered, and the filters still send a search', async ({
    page,
    baseURL,
  }) => {
    const word = uniqueWord();
    await listPhones(baseURL as string, word);
    await page.goto(`/search?q=${word}&storage=256+GB`);
    await expect(status(page)).toHaveText(`${PHONES / 2} phones`);
    await expect(page.getByRole('searchbox', { name: 'Search phones' })).toHaveValue(word);
    const form = page.getByRole('form', { name: 'Filters' });
    await form.getByRole('spinbutton', { name: 'Max' }).fill('150');
    await form.getByRole('spinbutton', { name: 'Max' }).press('Enter');
    await expect(page).toHaveURL(/maxPrice=150/);
    // 256 GB at $150 or less: phones 1, 3 and 5.
    await expect(status(page)).toHaveText('3 phones');
  });
});
