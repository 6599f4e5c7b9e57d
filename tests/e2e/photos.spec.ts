/**
 * A phone's photos (issue 18): a seller adds several, reorders them, and the cover is the card's
 * image; later they remove one from My Products. The image host names a photo by the hash of its
 * bytes, so the test knows each photo's URL before the server answers.
 */
import { createHash } from 'node:crypto';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { API_PASSWORD, createAccountViaApi, uniqueImei } from './api';
import { expect, test } from './console';

/** A photo of one colour, with the URL of the 640 px variant our image host stores it as. */
async function photo(name: string, background: string) {
  const buffer = await sharp({ create: { width: 1200, height: 900, channels: 3, background } })
    .jpeg()
    .toBuffer();
  const hash = createHash('sha256').update(buffer).digest('hex').slice(0, 32);
  return { name, mimeType: 'image/jpeg', buffer, url: `/images/${hash}-640.webp` };
}

/** A photo too big to send in a moment through a throttled connection (noise does not compress). */
async function largePhoto(name: string) {
  const width = 1000;
  const height = 750;
  const noise = Buffer.alloc(width * height * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
  const buffer = await sharp(noise, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 95 })
    .toBuffer();
  return { name, mimeType: 'image/jpeg', buffer };
}

async function signInAsNewSeller(page: Page, baseURL: string) {
  const seller = await createAccountViaApi(baseURL, 'seller', 'photos');
  await page.goto('/signin?from=%2Fdashboard%2Faddaproduct');
  await page.getByLabel('Email').fill(seller.email);
  await page.getByLabel('Password').fill(API_PASSWORD);
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Add A Product' })).toBeVisible();
  return seller;
}

async function fillProduct(page: Page, model: string) {
  await page.getByLabel('Category').selectOption({ label: 'Oppo' });
  await page.getByLabel('Model name').fill(model);
  await page.getByLabel('RAM').selectOption('8 GB');
  await page.getByLabel('Storage').selectOption('256 GB');
  await page.getByLabel('Color').fill('Teal');
  await page.getByLabel('Battery (mAh)').fill('4500');
  await page.getByLabel('Resale price ($)').fill('210');
  await page.getByLabel('Original price ($)').fill('399');
  await page.getByLabel('Time used (months)').fill('9');
  await page.getByLabel('IMEI').fill(uniqueImei());
  await page.getByLabel('Condition').selectOption('Good');
  await page.getByLabel('Phone number').fill('+1 206 555 0142');
  await page.getByLabel('Location').fill('Tacoma, WA');
  await page.getByLabel('Description').fill('Three photos: front, back and the box.');
}

const photosInput = (page: Page) => page.getByLabel('Photos', { exact: true });
const photoList = (page: Page) =>
  page.getByRole('list', { name: 'The photos in order, the cover first' }).getByRole('listitem');

/** The cover the brand page's card shows for `model`, once its image has loaded. */
async function expectCardCover(page: Page, model: string, url: string) {
  await page.goto('/category/04');
  const img = page
    .getByRole('article', { name: model })
    .getByRole('img', { name: `${model} in Teal` });
  await expect(img).toHaveAttribute('src', url);
  await expect
    .poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth))
    .toBeGreaterThan(0);
}

test('a seller adds three photos, reorders them, and the cover changes on the card; then removes one from My Products', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const model = `Oppo Find Photos ${Date.now().toString(36)}`;
  const [front, back, box] = await Promise.all([
    photo('front.jpg', '#c33'),
    photo('back.jpg', '#3c3'),
    photo('box.jpeg', '#33c'),
  ]);
  await signInAsNewSeller(page, baseURL as string);
  await fillProduct(page, model);

  await photosInput(page).setInputFiles([front, back, box]);
  await expect(photoList(page)).toHaveCount(3);
  // Each uploads through the pipeline; the progress bars go once all three are stored.
  await expect(page.getByRole('main').getByRole('progressbar')).toHaveCount(0);
  await expect(page.getByText('Photo 3 uploaded.')).toBeAttached();
  await expect(photoList(page).first()).toContainText('Cover');

  // The box, picked last, becomes the cover; the front moves to second place.
  await page.getByRole('button', { name: 'Make cover (photo 3)' }).click();
  await expect(page.getByText('Moved to position 1 of 3: it is the cover now.')).toBeAttached();
  await expect(page.getByRole('button', { name: 'Move photo 1 right' })).toBeFocused();
  // And from the keyboard: the back, now third, moves left past the front.
  await page.getByRole('button', { name: 'Move photo 3 left' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Move photo 2 left' })).toBeFocused();

  await page.getByRole('button', { name: 'Add A Product' }).click();
  await expect(page.getByText('Product uploaded sucessfully')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/myproducts$/);

  await expectCardCover(page, model, box.url);

  await page.goto('/dashboard/myproducts');
  await page.getByRole('link', { name: `Photos of ${model}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Photos of ${model}` })).toBeVisible();
  const shown = photoList(page).getByRole('img');
  await expect(shown).toHaveCount(3);
  expect(await shown.evaluateAll((imgs) => imgs.map((i) => i.getAttribute('src')))).toEqual([
    box.url,
    back.url,
    front.url,
  ]);
  await expect(shown.first()).toHaveAccessibleName(`${model}: Photo 1 of 3, the cover`);

  await page.getByRole('button', { name: 'Remove (photo 1)' }).click();
  await expect(page.getByText('Photo removed, 2 left.')).toBeAttached();
  await expect(photoList(page)).toHaveCount(2);
  await page.getByRole('button', { name: 'Save photos' }).click();
  await expect(page.getByText('Photos saved.')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/myproducts$/);

  await expectCardCover(page, model, back.url);

  await page.goto('/dashboard/myproducts');
  await page.getByRole('button', { name: `Delete ${model}` }).click();
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Deleted Product Successfully.')).toBeVisible();
});

test('on a slow connection each photo shows its upload progress, at phone size', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 375, height: 812 });
  await signInAsNewSeller(page, baseURL as string);
  const photos = await Promise.all([largePhoto('one.jpg'), largePhoto('two.jpg')]);
  expect(photos[0].buffer.length).toBeGreaterThan(200_000);
  // Two different photos: the second's noise starts elsewhere.
  photos[1].buffer = await sharp(photos[1].buffer).flop().jpeg({ quality: 95 }).toBuffer();

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 100,
    downloadThroughput: -1,
    uploadThroughput: 128 * 1024,
  });
  await photosInput(page).setInputFiles(photos);

  const first = photoList(page).first();
  const second = photoList(page).nth(1);
  // One at a time: the second waits while the first goes, its bar moving.
  await expect(second.getByText('Waiting to upload')).toBeVisible();
  // The bar is named by its percent: part of the photo sent, not all of it yet.
  await expect(first.getByRole('progressbar', { name: /^Uploading: [1-9]\d?%$/ })).toBeVisible();

  // Nothing runs off a phone's screen while it uploads.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await expect(page.getByRole('main').getByRole('progressbar')).toHaveCount(0, { timeout: 30_000 });
  await expect(photoList(page)).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'Make cover (photo 2)' })).toBeVisible();
});
