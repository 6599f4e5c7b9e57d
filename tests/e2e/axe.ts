/** axe in the browser tests: what it finds serious or critical on a page, in both themes. */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * The rules whose answer can change with the theme: the theme changes colours only (no element
 * is shown or hidden by it: nothing in the client uses `dark:hidden` or the like), so every
 * other rule answers in the dark as it did in the light. Scanning the dark theme with these alone
 * spares a second full scan of each page (a quarter to a half of its time, measured).
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/** Once colours have finished their transitions to the theme just chosen. */
export const settled = (page: Page) =>
  page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'),
  );

/**
 * axe's serious and critical findings on the page as it stands: every rule in the light theme,
 * then the colour rules in the dark (each after the theme's transitions have ended). One line a
 * finding, named by `where`, the theme, the rule, its impact, how many elements and the first
 * three. The page is left in the light theme, settled.
 */
export async function seriousFindings(page: Page, where = 'page'): Promise<string[]> {
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await settled(page);
    // Our pages hold no frames, so axe runs in the page itself (legacy mode), without the blank
    // page it otherwise opens to merge frames; only violations come back.
    const axe = new AxeBuilder({ page }).setLegacyMode().options({ resultTypes: ['violations'] });
    if (colorScheme === 'dark') axe.withRules(COLOUR_RULES);
    const { violations } = await axe.analyze();
    for (const v of violations) {
      if (v.impact !== 'serious' && v.impact !== 'critical') continue;
      const targets = v.nodes.slice(0, 3).map((n) => n.target.join(' '));
      found.push(
        `${where}, ${colorScheme}: ${v.id} (${v.impact}, ${v.nodes.length}x) ${targets.join(' | ')}`,
      );
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await settled(page);
  return found;
}
