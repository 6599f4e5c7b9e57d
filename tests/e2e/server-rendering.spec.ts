/**
 * The public pages come rendered by the server (decision 016): they read without JavaScript,
 * and what a seller writes cannot break out of the page's state into a script.
 */
import { createSellerWithPhone } from './api';
import { expect, test } from './console';
import { FIXTURE } from './fixture';

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

  test('the sign-in form shows, but cannot be sent before the page is interactive', async ({
    page,
  }) => {
    await page.goto('/signin');
    await expect(page.getByLabel('Email')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeDisabled();
  });
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
