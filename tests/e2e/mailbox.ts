/**
 * The browser tests' mailbox: a real SMTP server on loopback that the e2e server sends its mail
 * to, and a small HTTP door on MAILBOX_PORT through which a test takes the next mail to an
 * address (`GET /next?to=`), as a person opens their inbox.
 */
import { createServer } from 'node:http';
import { startSmtpServer } from '../helpers/smtp-server';
import { MAILBOX_PORT } from './fixture';

export async function startMailbox() {
  const smtp = await startSmtpServer();
  const http = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const to = url.searchParams.get('to');
    if (url.pathname !== '/next' || !to) {
      res.writeHead(404).end();
      return;
    }
    try {
      const mail = await smtp.next(to.toLowerCase(), 15_000);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ subject: mail.subject, text: mail.text, html: mail.html }));
    } catch (err) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(String(err));
    }
  });
  await new Promise<void>((resolve) => http.listen(MAILBOX_PORT, '127.0.0.1', resolve));
  return { smtpUrl: smtp.url };
}

/** The next mail to `to` (waiting up to 15 s for it), from a test. */
export async function nextMail(to: string): Promise<{ subject: string; text: string }> {
  const res = await fetch(`http://127.0.0.1:${MAILBOX_PORT}/next?to=${encodeURIComponent(to)}`);
  if (!res.ok) throw new Error(`no mail to ${to}: ${await res.text()}`);
  return res.json();
}
