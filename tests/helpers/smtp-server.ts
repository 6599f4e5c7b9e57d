/**
 * A real SMTP server on loopback for the tests (the `smtp-server` library): it keeps every mail
 * it accepts, parsed, and can be told to refuse mail for a while, as a server that is down
 * for maintenance answers (451, try again later).
 */
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = ParsedMail & { envelopeTo: string[] };

export type TestSmtpServer = {
  url: string;
  received: ReceivedMail[];
  /** While true, every mail is refused with a temporary error. */
  refusing: boolean;
  /** The next mail to `to`, waiting for it to arrive. */
  next(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
};

export async function startSmtpServer(): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const waiting = new Set<() => void>();
  const state = { refusing: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        if (state.refusing) {
          const err = new Error('Mailbox busy, try again later') as Error & {
            responseCode: number;
          };
          err.responseCode = 451;
          callback(err);
          return;
        }
        const mail = await simpleParser(Buffer.concat(chunks));
        received.push({
          ...mail,
          envelopeTo: session.envelope.rcptTo.map((r) => r.address),
        } as ReceivedMail);
        for (const wake of waiting) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  /** Takes the first mail to `to` out of those received, if one came. */
  const take = (to: string) => {
    const i = received.findIndex((m) => m.envelopeTo.includes(to));
    return i === -1 ? undefined : received.splice(i, 1)[0];
  };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    get refusing() {
      return state.refusing;
    },
    set refusing(value: boolean) {
      state.refusing = value;
    },
    async next(to, timeoutMs = 10_000) {
      const already = take(to);
      if (already) return already;
      return new Promise<ReceivedMail>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(wake);
          reject(new Error(`no mail to ${to} within ${timeoutMs} ms`));
        }, timeoutMs);
        const wake = () => {
          const mail = take(to);
          if (!mail) return;
          clearTimeout(timer);
          waiting.delete(wake);
          resolve(mail);
        };
        waiting.add(wake);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
