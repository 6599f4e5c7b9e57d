/** My Products' own table (the page also has What sells, whose rows name the same models). */
import type { Page } from '@playwright/test';

export const myProductsTable = (page: Page) => page.getByRole('table', { name: 'My Products' });

/** The row of My Products' table that shows `text`. */
export const myProductsRow = (page: Page, text: string) =>
  myProductsTable(page).getByRole('row').filter({ hasText: text });
