/** axe in the browser tests: what it finds serious or critical on a page, in both themes. */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * axe's serious and critical findings on the page as it stands, in the light and the dark theme
 * (each after the theme's transitions have ended), each named by `where`, the theme, the rule and
 * its elements. The page is left in the light theme.
 */
export async function seriousFindings(page: Page, where = 'page'): Promise<string[]> {
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.waitForFunction(() =>
      document
        .getAnimations()
        .every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'),
    );
    const { violations } = await new AxeBuilder({ page })
      .setLegacyMode()
      .options({ resultTypes: ['violations'] })
      .analyze();
    for (const v of violations)
      if (v.impact === 'serious' || v.impact === 'critical')
        found.push(
          `${where}, ${colorScheme}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`,
        );
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}
