/**
 * How a mail leaves: through an SMTP server (`SMTP_URL`, `MAIL_FROM`), or, embedded, kept as an
 * `.eml` file under DATA_DIR/mail with a log line, so a fresh start shows every mail it would
 * have sent (decision 027). Both build the message with Nodemailer.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export type Mail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Headers such as List-Unsubscribe. */
  headers?: Record<string, string>;
};

export interface MailTransport {
  /** Where mail goes, for the start banner. */
  readonly description: string;
  /**
   * Hands the mail over; rejects when the server refuses it or cannot be reached. Answers where
   * it went when that is worth a log line (the embedded store's file).
   */
  send(mail: Mail): Promise<{ file?: string }>;
  close(): void;
}

/** The embedded sender's address: nobody replies to a mail kept in a file. */
export const EMBEDDED_FROM = 'Phone Market <no-reply@phone-market.invalid>';

export function smtpTransport(url: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport(url, { from });
  // Never the URL: it may hold the SMTP password.
  const { host, port } = new URL(url);
  return {
    description: `SMTP at ${host}${port ? `:${port}` : ''}`,
    async send(mail) {
      await transporter.sendMail({ ...mail, from });
      return {};
    },
    close: () => transporter.close(),
  };
}

export function fileTransport(dir: string): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    description: `kept as files in ${dir}`,
    async send(mail) {
      const { message } = (await transporter.sendMail({ ...mail, from: EMBEDDED_FROM })) as {
        message: Buffer;
      };
      // Reset links are in these: the owner's alone, whatever the process's umask.
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`;
      // Written whole, then renamed: a reader never sees half a mail.
      const temp = path.join(dir, `.${name}.tmp`);
      await writeFile(temp, message, { mode: 0o600 });
      await rename(temp, path.join(dir, name));
      return { file: path.join(dir, name) };
    },
    close: () => transporter.close(),
  };
}
