/** A person in a browser of their own (a context: its own cookies and live stream), signed in. */
import { type Browser, expect, type Page } from '@playwright/test';
import { API_PASSWORD } from './api';

/** Signs `email` in from the sign-in page and lands on `from`, as a person coming back would. */
export async function signedIn(
  browser: Browser,
  email: string,
  from: string,
  viewport?: { width: number; height: number },
  /** A browser that says it is not headless, for a view to count (decision 055). */
  userAgent?: string,
): Promise<Page> {
  const page = await (
    await browser.newContext({
      ...(viewport ? { viewport } : {}),
      ...(userAgent ? { userAgent } : {}),
    })
  ).newPage();
  await page.goto(`/signin?from=${encodeURIComponent(from)}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(API_PASSWORD);
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`${from.replace(/[/?]/g, '\\$&')}$`));
  return page;
}
