import type { Page } from '@playwright/test';
import { expect, test } from './console';
import { FIXTURE, OIDC_PORT } from './fixture';
import { nextMail } from './mailbox';

const NEW_PASSWORD = 'New-Account1!';
const uniqueEmail = (label: string) =>
  `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@e2e.example`;

/** Fills the sign-in form once its page is the one shown: after a link's click the page before
 * it stays on screen until the sign-in page has loaded, and it may have an Email field too. */
async function signIn(page: Page, email: string, password: string = FIXTURE.password) {
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
}

async function signUp(page: Page, name: string, email: string) {
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
}

const dashboardMenu = (page: Page) =>
  page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link');
const signOutButton = (page: Page) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign out' });

test('a visitor signs up as a user, arrives home signed in, and has the buyer dashboard', async ({
  page,
}) => {
  await page.goto('/signup');
  await expect(
    page.getByRole('heading', { name: 'Please choose an account type first' }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'User Account' })).toHaveAttribute(
    'href',
    '/signup/user',
  );
  await signUp(page, 'Uma User', uniqueEmail('uma'));
  await expect(page.getByText('Registration Successful')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(signOutButton(page)).toBeVisible();

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Dashboard' })
    .click();
  await expect(dashboardMenu(page)).toHaveText([
    'My Orders',
    'My WishList',
    'Saved searches',
    'Messages',
    'My reports',
  ]);
  await expect(page.getByRole('heading', { level: 1, name: 'My Orders' })).toBeVisible();
});

test('a visitor signs up as a seller and has the seller dashboard', async ({ page }) => {
  await page.goto('/signup');
  await page.getByRole('link', { name: 'Seller Account' }).click();
  await expect(page).toHaveURL(/\/signup\/seller$/);
  await expect(page.getByRole('button', { name: 'Continue with Google' })).toHaveCount(0);
  await signUp(page, 'Sid Seller', uniqueEmail('sid'));
  await expect(page.getByText('Registration Successful')).toBeVisible();
  await page.goto('/dashboard');
  await expect(dashboardMenu(page)).toHaveText([
    'Add A Product',
    'My Products',
    'My Sales',
    'Payouts',
    'Messages',
    'My reports',
  ]);
  await expect(page.getByRole('heading', { level: 1, name: 'My Products' })).toBeVisible();
});

test('signing out and in again', async ({ page, consoleErrors }) => {
  // A call already under way at the sign-out (the live stream reconnecting, the bell's count)
  // may carry the ended session's token: answered 401 and handled (session.renewToken), but the
  // browser logs every 401 a fetch gets. Seen once in a full run; the outcome checked is below.
  consoleErrors.allow(/status of 401/);
  const email = uniqueEmail('otto');
  await page.goto('/signup/user');
  await signUp(page, 'Otto Out', email);
  // Signed up, the sign-up form stays on screen until the home page has loaded.
  await expect(page).toHaveURL(/\/$/);
  await signOutButton(page).click();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' }),
  ).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Sign in' })
    .click();
  await signIn(page, email, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/$/);
  await expect(signOutButton(page)).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toMatch(/^ey/);
});

test('a wrong password and an unknown e-mail show wrong-password alike, a taken e-mail shows email-already-in-use', async ({
  page,
  consoleErrors,
}) => {
  consoleErrors.allow(/status of (401|422)/);
  await page.goto('/signin');
  await signIn(page, FIXTURE.buyer.email, 'Not-The-Pass1!');
  await expect(page.getByRole('alert')).toHaveText('wrong-password');
  const sentence = await page.getByRole('alert').getAttribute('aria-describedby');
  const told = await page.locator(`[id="${sentence}"]`).textContent();

  await page.goto('/signin');
  await signIn(page, `nobody-${Date.now()}@test.example`, 'Not-The-Pass1!');
  await expect(page.getByRole('alert')).toHaveText('wrong-password');
  await expect(page.getByRole('alert')).toHaveAccessibleDescription(told ?? '');

  await page.goto('/signup/user');
  await signUp(page, 'Copy Cat', FIXTURE.buyer.email);
  await expect(page.getByRole('alert')).toHaveText('email-already-in-use');
});

test('a signed-out visit to My WishList comes back there after signing in', async ({ page }) => {
  await page.goto('/dashboard/mywishlist');
  await expect(page).toHaveURL(/\/signin\?from=%2Fdashboard%2Fmywishlist$/);
  await signIn(page, FIXTURE.buyer.email);
  await expect(page).toHaveURL(/\/dashboard\/mywishlist$/);
  await expect(page.getByRole('heading', { level: 1, name: 'My WishLisht' })).toBeVisible();
});

test('each role sees its own menu and index page', async ({ page }) => {
  const cases = [
    {
      email: FIXTURE.admin.email,
      menu: [
        'Overview',
        'Review queue',
        'All Sellers',
        'All Buyers',
        'Banned Addresses',
        'Blocked IMEIs',
        'Disputes',
        'Reported messages',
        'Finance',
      ],
      index: 'All Sellers',
    },
    {
      email: FIXTURE.verifiedSeller.email,
      menu: ['Add A Product', 'My Products', 'My Sales', 'Payouts', 'Messages', 'My reports'],
      index: 'My Products',
    },
    {
      email: FIXTURE.buyer.email,
      menu: ['My Orders', 'My WishList', 'Saved searches', 'Messages', 'My reports'],
      index: 'My Orders',
    },
  ];
  for (const c of cases) {
    await page.goto('/signin?from=%2Fdashboard');
    await signIn(page, c.email);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(dashboardMenu(page)).toHaveText(c.menu);
    await expect(page.getByRole('heading', { level: 1, name: c.index })).toBeVisible();
    await signOutButton(page).click();
    await expect(page).toHaveURL(/\/signin/);
  }
});

test('a buyer is sent away from the admin pages', async ({ page }) => {
  await page.goto('/signin');
  await signIn(page, FIXTURE.buyer.email);
  await expect(signOutButton(page)).toBeVisible();
  await page.goto('/dashboard/allseller');
  await expect(page).toHaveURL(/\/signin$/);
});

test('the menu icon opens the dashboard drawer on a small screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/signin?from=%2Fdashboard');
  await signIn(page, FIXTURE.buyer.email);
  const link = dashboardMenu(page).filter({ hasText: 'My WishList' });
  await expect(link).toBeHidden();
  await page.getByLabel('Open dashboard menu').click();
  await link.click();
  await expect(page).toHaveURL(/\/dashboard\/mywishlist$/);
});

test('signing in with Google, end to end against a local OpenID provider', async ({
  page,
  baseURL,
}) => {
  const email = uniqueEmail('gina');
  await page.goto('/signin');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page).toHaveURL(new RegExp(`127\\.0\\.0\\.1:${OIDC_PORT}/interaction/`));
  await page.locator('input[name="login"]').fill(email);
  await page.locator('input[name="password"]').fill('anything');
  await page.locator('button[type="submit"]').click();
  await page.locator('button[type="submit"]').click();
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(signOutButton(page)).toBeVisible();
  await page.goto('/dashboard');
  await expect(dashboardMenu(page)).toHaveText([
    'My Orders',
    'My WishList',
    'Saved searches',
    'Messages',
    'My reports',
  ]);
});

test('a new account confirms its address by the mail, and a forgotten password is reset by mail', async ({
  page,
  consoleErrors,
}) => {
  // The old password, tried once after the reset, is refused (401).
  consoleErrors.allow(/status of 401/);
  const email = uniqueEmail('forgetful');
  await page.goto('/signup/user');
  await signUp(page, 'Fran Forgetful', email);
  await expect(page.getByText('Registration Successful')).toBeVisible();

  // The welcome mail's link confirms the address and lands on a page that says so (issue 31).
  const welcome = await nextMail(email);
  expect(welcome.subject).toBe('Confirm your e-mail address for Phone Market');
  await page.goto(linkIn(welcome.text, '/api/auth/verify-email'));
  await expect(page).toHaveURL(/\/email-confirmed$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Your e-mail address is confirmed',
  );
  await signOutButton(page).click();

  await page.goto('/signin');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send the link' }).click();
  await expect(page.getByRole('status')).toContainText(`If an account uses ${email}`);

  const mail = await nextMail(email);
  expect(mail.subject).toBe('Reset your Phone Market password');
  const link = linkIn(mail.text, '/api/auth/reset-password/');
  await page.goto(link);
  await expect(page).toHaveURL(/\/reset-password\?token=/);
  const chosen = 'Chosen-Again2!';
  await page.getByLabel('New password', { exact: true }).fill(chosen);
  await page.getByLabel('New password again').fill('Something-Else3!');
  await page.getByRole('button', { name: 'Save the new password' }).click();
  await expect(page.getByText('The two passwords are not the same')).toBeVisible();
  await page.getByLabel('New password again').fill(chosen);
  await page.getByRole('button', { name: 'Save the new password' }).click();
  await expect(page.getByRole('status')).toContainText('Your password is changed');
  await page.getByRole('main').getByRole('link', { name: 'Sign in' }).click();
  await signIn(page, email, NEW_PASSWORD);
  await expect(page.getByText('wrong-password')).toBeVisible();
  await signIn(page, email, chosen);
  await expect(signOutButton(page)).toBeVisible();

  // The link worked once.
  await page.goto(link);
  await expect(page.getByText('This link has expired or was used already')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ask for a new link' })).toBeVisible();
});

/** The one link of a mail's text that goes to `path`, as the browser would open it. */
function linkIn(text: string, path: string): string {
  const links = (text.match(/https?:\/\/\S+/g) ?? []).filter((u) =>
    new URL(u).pathname.startsWith(path),
  );
  expect(links, text).toHaveLength(1);
  return links[0] as string;
}
