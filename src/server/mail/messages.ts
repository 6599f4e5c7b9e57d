/**
 * The mails' words (issue 20): each a subject, a plain-text body and the same in simple HTML, a
 * greeting, a few sentences and one link, as a person reads them in any mail program.
 */
import { escapeXml } from '../markup';
import type { OutgoingMail } from './outbox';

type Letter = {
  kind: string;
  to: string;
  /** Whom to greet; null greets no one by name (the account mails, which anyone may ask for). */
  name: string | null;
  subject: string;
  lines: string[];
  action: { label: string; url: string };
  /** A sentence after the link (why they got it, what to do if it was not them). */
  footer: string;
  headers?: Record<string, string>;
};

export function letter({ kind, to, name, subject, lines, action, footer, headers }: Letter) {
  const greeting = name === null ? 'Hello,' : `Hello ${name},`;
  const text = [greeting, '', ...lines, '', `${action.label}: ${action.url}`, '', footer, ''].join(
    '\n',
  );
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1f2937">',
    `<p>${escapeXml(greeting)}</p>`,
    ...lines.map((line) => `<p>${escapeXml(line)}</p>`),
    `<p><a href="${escapeXml(action.url)}" style="display:inline-block;padding:10px 16px;background:#2563eb;color:#fff;border-radius:6px;text-decoration:none">${escapeXml(action.label)}</a></p>`,
    `<p style="font-size:13px;color:#6b7280">${escapeXml(footer)}</p>`,
    '</body></html>',
  ].join('\n');
  const mail: OutgoingMail = { kind, to, subject, text, html };
  if (headers) mail.headers = headers;
  return mail;
}

/*
 * The account mails greet no one by name: a stranger may sign up with someone else's address and
 * any name ("customer\n\nURGENT: confirm your bank at …"), and that text would reach the
 * address's owner in a mail from us.
 */
export const resetPasswordMail = (to: string, url: string) =>
  letter({
    kind: 'reset-password',
    to,
    name: null,
    subject: 'Reset your Phone Market password',
    lines: [
      'Someone asked to reset the password of your Phone Market account.',
      'The link below lets you choose a new one. It works once, within an hour.',
    ],
    action: { label: 'Choose a new password', url },
    footer:
      'If it was not you, do nothing: your password stays as it is, and nobody can use this mail without your inbox.',
  });

export const verifyEmailMail = (to: string, url: string) =>
  letter({
    kind: 'verify-email',
    to,
    name: null,
    subject: 'Confirm your e-mail address for Phone Market',
    lines: [
      'Welcome to Phone Market. Please confirm that this address is yours.',
      'You can browse and buy without it; a confirmed address is how we know mail about your sales reaches you.',
    ],
    action: { label: 'Confirm my address', url },
    footer: 'If you did not make an account, ignore this mail: nothing happens without the link.',
  });
