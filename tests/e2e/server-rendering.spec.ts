/**
 * The public pages come rendered by the server (decision 016): they read without JavaScript,
 * and what a seller writes cannot break out of the page's state into a script.
 */
import type { APIRequestContext } from '@playwright/test';
import { createSellerWithPhone, productIdOf } from './api';
import { expect, test } from './console';
import { FIXTURE } from './fixture';

/** The id of a fixture phone, as its brand's list answers it. */
async function phoneId(request: APIRequestContext, categoryId: string, modelName: string) {
  const list = (await (await request.get(`/api/category/${categoryId}`)).json()) as {
    _id: string;
    modelName: string;
  }[];
  const phone = list.find((p) => p.modelName === modelName);
  if (!phone) throw new Error(`no ${modelName} in brand ${categoryId}`);
  return phone._id;
}

/** The page's JSON-LD, parsed. */
const jsonLdOf = (html: string) =>
  JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1] ?? 'null');

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the home page shows its headline, the brands and the advertised phones', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Used phones you can trust');
    await expect(page.getByRole('region', { name: 'Categories' }).getByRole('link')).toHaveText([
      'Apple',
      'Samsung',
      'Infinix',
      'Oppo',
      'Xiaomi',
    ]);
    const advertised = page.getByRole('region', { name: 'Advertise of Products' });
    for (const name of FIXTURE.advertised)
      await expect(advertised.getByRole('heading', { name, level: 3 })).toBeVisible();
  });

  test('a category page shows its phones, and its links work', async ({ page }) => {
    await page.goto('/category/01');
    await expect(page.getByRole('heading', { name: 'Products' })).toBeVisible();
    await expect(page.getByRole('article')).toHaveCount(3);
    await page.getByRole('link', { name: 'Blog' }).click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect(page.getByRole('article')).toHaveCount(4);
  });

  test("a phone's page shows its cover photo and its particulars", async ({ page, request }) => {
    await page.goto(`/product/${await phoneId(request, '01', FIXTURE.featured.modelName)}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(FIXTURE.featured.modelName);
    const cover = page.getByRole('region', { name: 'Photos' }).getByRole('img').first();
    await expect
      .poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    await expect(page.getByText(FIXTURE.featured.description)).toBeVisible();
    await page.getByRole('link', { name: FIXTURE.verifiedSeller.name }).first().click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(FIXTURE.verifiedSeller.name);
  });

  test("a phone's page charts its model's sold prices, with a table as the chart's text", async ({
    page,
    request,
  }) => {
    const f = FIXTURE.featured;
    await page.goto(`/product/${await phoneId(request, '01', f.modelName)}`);
    const history = page.getByRole('region', { name: 'Price history' });
    const chart = history.getByRole('img', { name: /^Chart of sold prices by week/ });
    await expect(chart).toBeVisible();
    await expect(chart).toHaveAccessibleName(/12 sales from \$769\u2060–\u2060\$929/);
    await expect(chart).toContainText(`This phone $${f.resellPrice}`);
    // The text alternative: one row a week, under a disclosure that opens without JavaScript.
    await history.getByText('Weekly prices as a table').click();
    const rows = history.getByRole('table').getByRole('row');
    await expect(rows).toHaveCount(FIXTURE.pastSales.length + 1);
    await expect(rows.nth(1).getByRole('cell')).toHaveText(['2', '$914', '$899', '$929']);
  });

  test('the sign-in form shows, but cannot be sent before the page is interactive', async ({
    page,
  }) => {
    await page.goto('/signin');
    await expect(page.getByLabel('Email')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeDisabled();
  });
});

test("a phone's price history fits a phone's width, in the dark theme too, hydrated as rendered", async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 360, height: 780 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`/product/${await phoneId(request, '01', FIXTURE.featured.modelName)}`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', '');
  const chart = page.getByRole('img', { name: /^Chart of sold prices by week/ });
  await chart.scrollIntoViewIfNeeded();
  const box = await chart.boundingBox();
  expect(box?.width).toBeGreaterThan(250);
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(360);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  // Its marks take the theme's colours: the median line is not the light theme's text colour.
  const line = chart.locator('polyline');
  expect(await line.evaluate((el) => getComputedStyle(el).stroke)).not.toBe('rgb(0, 0, 0)');
});

test('a rendered page comes compressed, and is never cached by the browser', async ({ page }) => {
  const response = await page.goto('/category/01');
  const headers = response?.headers() ?? {};
  expect(headers['content-encoding']).toBe('br');
  expect(headers.vary).toMatch(/accept-encoding/i);
  expect(headers['cache-control']).toBe('no-cache');
  expect(headers['content-type']).toBe('text/html; charset=utf-8');
});

test('what a seller writes stays text: it cannot end the state script', async ({
  page,
  baseURL,
}) => {
  const modelName = 'Pixel </script><script>window.pwned = 1</script>';
  await createSellerWithPhone(baseURL ?? '', '04', modelName);
  const response = await page.goto('/category/04');
  expect(await response?.text()).not.toContain('<script>window.pwned');
  await expect(page.getByRole('heading', { name: modelName })).toBeVisible();
  expect(await page.evaluate(() => 'pwned' in window)).toBe(false);
  // Hydrated from that state: the page is interactive.
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', '');
});

test('a rendered page whose code cannot load offers a reload instead of pretending to work', async ({
  page,
  consoleErrors,
}) => {
  consoleErrors.allow(/Failed to load resource|Failed to fetch dynamically imported module/);
  await page.route(/\/assets\/blog-[\w-]+\.js$/, (route) => route.abort());
  await page.goto('/blog');
  await expect(page.getByRole('button', { name: 'Reload' })).toBeVisible();
  await expect(page.getByRole('heading', { name: /could not be loaded/ })).toBeVisible();
});

test("a phone's page names itself to search engines: title, canonical URL, picture and offer", async ({
  request,
  baseURL,
}) => {
  const f = FIXTURE.featured;
  const id = await phoneId(request, '01', f.modelName);
  const res = await request.get(`/product/${id}`);
  expect(res.status()).toBe(200);
  const html = await res.text();
  // The server's own address (PUBLIC_URL, else localhost and its port), not the request's.
  const site = `http://localhost:${new URL(baseURL ?? '').port}`;
  expect(html).toContain(`<title>${f.modelName}, 1 TB, Good · Phone Market</title>`);
  expect(html).toContain(`<link rel="canonical" href="${site}/product/${id}" />`);
  expect(html).toContain('<meta property="og:type" content="product" />');
  expect(html).toMatch(
    new RegExp(`<meta property="og:image" content="${site}/images/[0-9a-f]+-640\\.webp" />`),
  );
  expect(html).not.toContain('noindex');
  // The cover is the page's largest paint: asked for first.
  expect(html).toMatch(/<img [^>]*loading="eager"[^>]*fetchPriority="high"/);
  const ld = jsonLdOf(html);
  expect(ld).toMatchObject({
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: f.modelName,
    description: f.description,
    brand: { '@type': 'Brand', name: 'Apple' },
    offers: {
      '@type': 'Offer',
      price: f.resellPrice,
      priceCurrency: 'USD',
      availability: 'https://schema.org/InStock',
      itemCondition: 'https://schema.org/UsedCondition',
      url: `${site}/product/${id}`,
    },
  });
  expect(ld.image).toHaveLength(3);
  for (const image of ld.image) expect(image).toMatch(new RegExp(`^${site}/images/`));
});

test("a sold phone's page is kept out of search engines, and says it is sold", async ({
  request,
}) => {
  const id = await phoneId(request, '01', FIXTURE.sold.modelName);
  const html = await (await request.get(`/product/${id}`)).text();
  expect(html).toContain('<meta name="robots" content="noindex" />');
  expect(jsonLdOf(html).offers.availability).toBe('https://schema.org/SoldOut');
  expect(html).toContain('This phone has been sold.');
  // No Book Now for the phone itself (the similar phones offered first, issue 33, have theirs).
  const withoutSimilar = html.replace(
    /<section aria-labelledby="similar-heading".*?<\/section>/s,
    '',
  );
  expect(withoutSimilar).not.toContain('>Book Now<');
});

test("a deleted phone's page answers 404", async ({ request, baseURL }) => {
  const modelName = `Deleted ${Date.now().toString(36)}`;
  const seller = await createSellerWithPhone(baseURL ?? '', '04', modelName);
  const id = await productIdOf(seller, modelName);
  expect((await request.get(`/product/${id}`)).status()).toBe(200);
  const removal = await seller.api.delete(`/api/products?id=${id}`, { headers: seller.bearer });
  expect(removal.ok()).toBe(true);
  expect((await request.get(`/product/${id}`)).status()).toBe(404);
});
