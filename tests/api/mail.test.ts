/**
 * Mail (issue 20, decision 027) through a real SMTP server on loopback: the address is confirmed
 * by the link of a welcome mail, a forgotten password is reset by the link of a mail, and the
 * outbox keeps mail the SMTP server refused until it takes it, across a restart.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { authUsers, outboxMails } from '../../src/server/db/schema';
import { GOOD_PASSWORD, SAME_SITE, signIn, signUp, uniqueEmail } from '../helpers/accounts';
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const FROM = 'Phone Market <market@test.example>';
let smtp: TestSmtpServer;
let t: TestApp;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await buildTestApp({ SMTP_URL: smtp.url, MAIL_FROM: FROM });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});
beforeEach(() => {
  smtp.refusing = false;
});

/** The one link of a mail's plain-text body that goes to `path`. */
function linkIn(mail: ReceivedMail, path: string): URL {
  const urls = (mail.text ?? '').match(/https?:\/\/\S+/g) ?? [];
  const found = urls.map((u) => new URL(u)).filter((u) => u.pathname.startsWith(path));
  expect(found, `${path} in ${mail.text}`).toHaveLength(1);
  return found[0] as URL;
}

const requestReset = (email: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/request-password-reset',
    headers: SAME_SITE,
    payload: { email, redirectTo: '/reset-password' },
  });

const mailRows = (to: string) =>
  t.database.db.select().from(outboxMails).where(eq(outboxMails.toAddress, to));

describe('a new account', () => {
  it('is sent a mail whose link confirms its address, from MAIL_FROM', async () => {
    const { email } = await signUp(t.app, { name: 'Ada Buyer' });
    const mail = await smtp.next(email);
    expect(mail.from?.value).toEqual([{ name: 'Phone Market', address: 'market@test.example' }]);
    expect(mail.subject).toBe('Confirm your e-mail address for Phone Market');
    // Greeted by no name: anyone may sign up with an address, and any name.
    expect(mail.text).toMatch(/^Hello,\n/);
    expect(mail.text).not.toContain('Ada Buyer');
    expect(mail.html).toContain('Confirm my address');
    const link = linkIn(mail, '/api/auth/verify-email');

    const res = await t.app.inject(`${link.pathname}${link.search}`);
    // It lands on the page that says the address is confirmed (issue 31), not on the home page.
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/email-confirmed');
    const [identity] = await t.database.db
      .select()
      .from(authUsers)
      .where(eq(authUsers.email, email));
    expect(identity?.emailVerified).toBe(true);
  });

  it('whose link is spoiled lands on the confirmation page, told the link did not work', async () => {
    const { email } = await signUp(t.app, { name: 'Eve Expired' });
    const link = linkIn(await smtp.next(email), '/api/auth/verify-email');
    link.searchParams.set('token', 'not-a-token');
    const res = await t.app.inject(`${link.pathname}${link.search}`);
    expect(res.statusCode).toBe(302);
    const landing = new URL(res.headers.location as string, 'http://localhost');
    expect(landing.pathname).toBe('/email-confirmed');
    expect(landing.searchParams.get('error')).toBeTruthy();
  });

  it('made by the server itself (demo data) is sent nothing', async () => {
    const email = uniqueEmail('demo');
    await t.app.identity.createIdentity({ email, password: GOOD_PASSWORD, name: 'Demo' });
    await t.app.outbox.idle();
    expect(await mailRows(email)).toHaveLength(0);
  });
});

describe('a forgotten password', () => {
  it('is reset by the link of a mail; the old one and the used link stop working', async () => {
    const { email } = await signUp(t.app, { name: 'Forgetful' });
    await smtp.next(email);
    expect((await requestReset(email)).statusCode).toBe(200);
    const mail = await smtp.next(email);
    expect(mail.subject).toBe('Reset your Phone Market password');
    const link = linkIn(mail, '/api/auth/reset-password/');

    // The link leads to our page with the token, as the browser follows it.
    const opened = await t.app.inject(`${link.pathname}${link.search}`);
    expect(opened.statusCode).toBe(302);
    const landing = new URL(opened.headers.location as string, 'http://localhost');
    expect(landing.pathname).toBe('/reset-password');
    const token = landing.searchParams.get('token') as string;
    expect(token).toBeTruthy();

    const newPassword = 'Another-Pass2!';
    const reset = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/reset-password',
        headers: SAME_SITE,
        payload: { token, newPassword: password },
      });
    expect((await reset(newPassword)).statusCode).toBe(200);
    expect((await signIn(t.app, email, GOOD_PASSWORD)).statusCode).toBe(401);
    expect((await signIn(t.app, email, newPassword)).statusCode).toBe(200);
    expect((await reset('Third-Pass3!')).statusCode).toBe(400);
  });

  it('ends every other reset link of the account when one is used', async () => {
    const { email } = await signUp(t.app);
    await smtp.next(email);
    const tokenOf = async () =>
      linkIn(await smtp.next(email), '/api/auth/reset-password/')
        .pathname.split('/')
        .pop();
    await requestReset(email);
    const first = await tokenOf();
    await requestReset(email);
    const second = await tokenOf();
    const reset = (token: string | undefined, newPassword: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/reset-password',
        headers: SAME_SITE,
        payload: { token, newPassword },
      });
    expect((await reset(second, 'Second-Pass2!')).statusCode).toBe(200);
    expect((await reset(first, 'First-Pass1!')).statusCode).toBe(400);
    expect((await signIn(t.app, email, 'Second-Pass2!')).statusCode).toBe(200);
  });

  it('keeps the password rules: a weak new password is refused and the link still works', async () => {
    const { email } = await signUp(t.app);
    await smtp.next(email);
    await requestReset(email);
    const link = linkIn(await smtp.next(email), '/api/auth/reset-password/');
    const token = link.pathname.split('/').pop() as string;
    const weak = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      headers: SAME_SITE,
      payload: { token, newPassword: 'short' },
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().code).toBe('WEAK_PASSWORD');
    expect((await signIn(t.app, email, GOOD_PASSWORD)).statusCode).toBe(200);
  });

  it('answers the same for an address with no account, and sends nothing', async () => {
    const email = uniqueEmail('nobody');
    const res = await requestReset(email);
    expect(res.statusCode).toBe(200);
    // The reset's work is done after its answer (decision 036).
    await t.app.afterAnswer.idle();
    await t.app.outbox.idle();
    expect(await mailRows(email)).toHaveLength(0);
  });

  it('sends an address three reset mails an hour at most, however often it is asked', async () => {
    const { email } = await signUp(t.app);
    await smtp.next(email);
    for (let i = 0; i < 6; i++) expect((await requestReset(email)).statusCode).toBe(200);
    await t.app.afterAnswer.idle();
    await t.app.outbox.idle();
    const resets = (await mailRows(email)).filter((m) => m.kind === 'reset-password');
    expect(resets).toHaveLength(3);
  });

  it('refuses a malformed address before looking it up', async () => {
    const res = await requestReset('not an address');
    expect(res.statusCode).toBe(400);
  });
});

describe('the outbox', () => {
  it('keeps a mail the SMTP server refused and sends it once the server takes it', async () => {
    smtp.refusing = true;
    const { email } = await signUp(t.app);
    await t.app.outbox.idle();
    const [waiting] = await mailRows(email);
    expect(waiting).toMatchObject({ sentAt: null, attempts: 1 });
    expect(waiting?.lastError).toMatch(/451|try again/i);
    expect(waiting?.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());

    // Not due again before its retry time.
    expect(await t.app.outbox.deliver()).toEqual({ sent: 0, failed: 0 });
    smtp.refusing = false;
    const later = new Date(Date.now() + 2 * 60 * 1000);
    expect((await t.app.outbox.deliver(later)).sent).toBeGreaterThanOrEqual(1);
    expect((await smtp.next(email)).subject).toBe('Confirm your e-mail address for Phone Market');
    const [sent] = await mailRows(email);
    expect(sent?.sentAt).toBeInstanceOf(Date);
    // Sent once: another delivery sends nothing more.
    await t.app.outbox.deliver(new Date(Date.now() + 60 * 60 * 1000));
    await expect(smtp.next(email, 300)).rejects.toThrow(/no mail/);
  });

  it('loses nothing across a restart: another server on the same database sends it', async () => {
    smtp.refusing = true;
    const { email } = await signUp(t.app);
    await t.app.outbox.idle();
    expect((await mailRows(email))[0]?.sentAt).toBeNull();
    smtp.refusing = false;

    const restarted = await buildApp({ config: t.app.config, database: t.database });
    try {
      await restarted.outbox.deliver(new Date(Date.now() + 2 * 60 * 1000));
      expect((await smtp.next(email)).envelopeTo).toEqual([email]);
    } finally {
      await restarted.close();
    }
  });

  it('sends a mail whose server cannot be reached later, when it can', async () => {
    const down = await buildTestApp({ SMTP_URL: 'smtp://127.0.0.1:9', MAIL_FROM: FROM });
    try {
      const { email } = await signUp(down.app);
      await down.app.outbox.idle();
      const [row] = await down.database.db
        .select()
        .from(outboxMails)
        .where(eq(outboxMails.toAddress, email));
      expect(row).toMatchObject({ sentAt: null, attempts: 1 });
      expect(row?.lastError).toMatch(/ECONNREFUSED|connect/i);
    } finally {
      await down.close();
    }
  });
});
