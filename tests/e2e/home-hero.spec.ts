/**
 * The home hero at phone widths (issue 31): its heading and tagline sit beside the picture, never
 * over it, from the narrowest phone (320 px) to a large one (390 px), and the hero's text stays
 * inside the hero.
 */
import { expect, test } from './console';

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

for (const width of [320, 360, 390]) {
  test(`at ${width} px the hero's heading does not overlap its picture`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/');
    const hero = page.getByRole('region', { name: 'Highlights' });
    const slide = hero.getByRole('group', { name: '1 of 4' });
    const heading = slide.getByRole('heading', { level: 1 });
    await expect(heading).toHaveText('Used phones you can trust');
    const picture = await slide.locator('img').boundingBox();
    const headingBox = await heading.boundingBox();
    const tagline = await slide.locator('p').boundingBox();
    const heroBox = await hero.boundingBox();
    expect(picture && headingBox && tagline && heroBox).toBeTruthy();
    if (!picture || !headingBox || !tagline || !heroBox) return;
    expect(overlap(headingBox, picture), JSON.stringify({ headingBox, picture })).toBe(false);
    expect(overlap(tagline, picture), JSON.stringify({ tagline, picture })).toBe(false);
    // The text fits the hero: nothing cut off at its bottom or sides.
    expect(tagline.y + tagline.height).toBeLessThanOrEqual(heroBox.y + heroBox.height);
    expect(headingBox.x + headingBox.width).toBeLessThanOrEqual(heroBox.x + heroBox.width);
    // And the arrows cover none of it.
    for (const name of ['Previous slide', 'Next slide']) {
      const arrow = await hero.getByRole('button', { name }).boundingBox();
      expect(arrow).toBeTruthy();
      if (!arrow) continue;
      expect(overlap(arrow, headingBox)).toBe(false);
      expect(overlap(arrow, tagline)).toBe(false);
    }
  });
}
