/**
 * Similar phones (issue 33, decision 050): a phone no longer for sale offers phones like it
 * first, in the page the server renders (no second round trip, and without JavaScript), each
 * card leading to its own page.
 */
import {
  bookPhone,
  createAccountViaApi,
  createSellerWithPhone,
  payOrder,
  productIdOf,
} from './api';
import { seriousFindings } from './axe';
import { expect, test } from './console';

const INSTEAD = 'This phone is no longer available: similar phones for sale';

/** Two phones of one model by two sellers; the first booked and paid for, so sold. */
async function soldAndSimilar(baseURL: string) {
  const model = `Oppo Like ${Date.now().toString(36)}`;
  const first = await createSellerWithPhone(baseURL, '04', model);
  const second = await createSellerWithPhone(baseURL, '04', model);
  const sold = await productIdOf(first, model);
  const similar = await productIdOf(second, model);
  const buyer = await createAccountViaApi(baseURL, 'user', 'similar');
  await payOrder(buyer, await bookPhone(buyer, sold));
  return { model, sold, similar };
}

test("a sold phone's page offers similar phones first, rendered by the server, each leading to its page", async ({
  page,
  browser,
  baseURL,
}) => {
  const { model, sold, similar } = await soldAndSimilar(baseURL as string);

  // Without JavaScript: what the server sent holds them, before the phone's own details.
  const plain = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const noScript = await plain.newPage();
  await noScript.goto(`/product/${sold}`);
  const offered = noScript.getByRole('region', { name: INSTEAD });
  await expect(offered).toBeVisible();
  // The same model first; other phones of the brand in its price band (other tests') may follow.
  await expect(
    offered.getByRole('article').first().getByRole('link', { name: model }),
  ).toHaveAttribute('href', `/product/${similar}`);
  const top = async (name: string) =>
    (await noScript.getByRole('heading', { name }).boundingBox())?.y ?? Number.NaN;
  expect(await top(INSTEAD)).toBeLessThan(await top('About the seller'));
  await plain.close();

  // In the browser: axe finds nothing serious, and the card's link opens the similar phone's page.
  await page.goto(`/product/${sold}`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', '');
  expect(await seriousFindings(page)).toEqual([]);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByRole('region', { name: INSTEAD }).getByRole('link', { name: model }).click();
  await expect(page).toHaveURL(new RegExp(`/product/${similar}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(model);
  await expect(page.getByRole('region', { name: INSTEAD })).toHaveCount(0);
});
