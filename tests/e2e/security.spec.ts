/**
 * In a real browser: the pages run under the strict Content-Security-Policy without tripping it
 * (the console fixture fails a test on any violation), an injected inline script does not run,
 * and the API reference works under the same policy.
 */
import { expect, test } from './console';

test('the storefront runs under a policy that refuses inline script', async ({
  page,
  consoleErrors,
}) => {
  const response = await page.goto('/');
  const csp = (await response?.headerValue('content-security-policy')) ?? '';
  expect(csp).toMatch(/script-src 'self';/);
  expect(csp).toContain("frame-ancestors 'none'");
  await expect(page.getByRole('region', { name: 'Categories' })).toBeVisible();
  // The one script without a source is a server-rendered page's state: JSON, never run.
  expect(await page.locator('script:not([src]):not([type="application/json"])').count()).toBe(0);

  // What an injection would do: add an inline script. The browser refuses to run it.
  consoleErrors.allow(/Content Security Policy/);
  const violation = page.evaluate(
    () =>
      new Promise<string>((resolve) =>
        document.addEventListener('securitypolicyviolation', (e) => resolve(e.violatedDirective)),
      ),
  );
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.injected = true';
    document.body.append(script);
  });
  expect(await violation).toMatch(/^script-src/);
  expect(await page.evaluate(() => 'injected' in window)).toBe(false);
});

test('the API reference works under the same policy', async ({ page }) => {
  await page.goto('/api/docs/');
  // Swagger UI parses a 1.7 MB bundle and lays out every call of a 175 kB document: 10 s alone on
  // these two cores, more beside other browsers. Its speed is not what this test is about.
  await expect(page.getByRole('heading', { name: /Used-phone marketplace API/ })).toBeVisible({
    timeout: 45_000,
  });
  await expect(page.getByText('/api/category/{id}').first()).toBeVisible();
});
