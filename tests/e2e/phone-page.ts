import type { Locator, Page } from '@playwright/test';

/**
 * What `locator` finds of the phone a page is about, not of the cards of similar phones the page
 * offers (issue 33): they carry the same Book Now, Add to Wish List and badges.
 */
export const ofThePhone = (page: Page, locator: Locator): Locator =>
  locator.and(page.locator(':not([aria-labelledby="similar-heading"] *)'));
