/**
 * The operator's commands (`npm run admin -- grant|revoke|list`, and the dump that `npm run
 * backup` asks for), run on this machine with the server's environment. On PostgreSQL the command
 * writes the database itself. An embedded database is open in the running server alone (one
 * process per PGlite directory), so the server listens on a Unix socket in DATA_DIR, readable by
 * its owner only (the file system is the proof of being the operator), and the command asks it;
 * with no server running, the command opens the directory itself.
 */

import { chmod, unlink } from 'node:fs/promises';
import { createConnection, createServer, type Server } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { emailSchema } from '../shared/api';
import { writeDump } from './backup/take-backup';
import type { Database, Db } from './db/client';
import { checkLedger } from './ledger/check';
import { listAdmins, setAdmin } from './repositories/users';

export const OPERATOR_SOCKET = 'operator.sock';
export const operatorSocketOf = (dataDir: string) => path.join(dataDir, OPERATOR_SOCKET);

const adminCommands = [
  z.object({ command: z.enum(['grant', 'revoke']), email: emailSchema }),
  z.object({ command: z.literal('list') }),
] as const;
const commandSchema = z.discriminatedUnion('command', adminCommands);
export type OperatorCommand = z.infer<typeof commandSchema>;

/**
 * What the socket takes: the admin commands, and `dump`, which writes the database's dump to a
 * new file (take-backup.ts). The server may write it anywhere its user may: the socket's only
 * callers are that same user.
 */
const socketCommandSchema = z.discriminatedUnion('command', [
  ...adminCommands,
  z.object({
    command: z.literal('dump'),
    file: z.string().refine(path.isAbsolute, 'file: must be an absolute path'),
  }),
  // `npm run ledger:check` against the running server's database (issue 30).
  z.object({ command: z.literal('ledger-check') }),
]);
export type SocketCommand = z.infer<typeof socketCommandSchema>;
export type OperatorAnswer = { ok: boolean; message: string };

/** The check's answer as the command prints it. */
export const ledgerReport = (problems: string[]) =>
  problems.length === 0
    ? 'The ledger adds up: every transaction balances, every sale and payout has its entries.'
    : `The ledger does not add up (${problems.length} problems):\n${problems.map((p) => `  - ${p}`).join('\n')}`;

export const USAGE =
  'usage: npm run admin -- grant EMAIL | revoke EMAIL | list\n' +
  '  grant   makes the account of EMAIL an admin\n' +
  '  revoke  takes the admin role back\n' +
  '  list    lists the admins';

/** Reads the command line (`grant a@b.c`) as a command, or answers why not. */
export function parseOperatorArgs(args: string[]): OperatorCommand | { error: string } {
  const [command, email, ...rest] = args;
  const parsed = commandSchema.safeParse(
    command === 'list' ? { command } : { command, email: email ?? '' },
  );
  if (!parsed.success || rest.length > 0 || (command === 'list' && email !== undefined)) {
    const problem = parsed.success ? 'too many arguments' : parsed.error.issues[0]?.message;
    return { error: `${problem ?? 'unknown command'}\n${USAGE}` };
  }
  return parsed.data;
}

export async function runOperatorCommand(
  db: Db,
  adminEmails: ReadonlySet<string>,
  command: OperatorCommand,
): Promise<OperatorAnswer> {
  if (command.command === 'list') {
    const admins = await listAdmins(db, adminEmails);
    return {
      ok: true,
      message: admins.length > 0 ? admins.join('\n') : 'There is no admin yet.',
    };
  }
  const { email } = command;
  const grant = command.command === 'grant';
  const result = await setAdmin(db, email, grant);
  if (result === 'no-account') {
    return {
      ok: false,
      message:
        `No account uses ${email}. Its owner signs up first (on the sign-up page, or with ` +
        'Google), then run this command again.',
    };
  }
  if (grant) {
    return {
      ok: true,
      message: result === 'changed' ? `${email} is now an admin.` : `${email} is already an admin.`,
    };
  }
  if (result === 'changed') return { ok: true, message: `${email} is no longer an admin.` };
  const listed = adminEmails.has(email)
    ? ' It is listed in ADMIN_EMAILS, which makes it admin whenever its owner proves the address' +
      ' (Google sign-in with a verified e-mail): remove it there and restart the server.'
    : '';
  return { ok: true, message: `${email} was not made an admin by this command.${listed}` };
}

/** Serves operator commands on DATA_DIR's socket while the server runs on `database`. */
export async function listenForOperator(
  dataDir: string,
  database: Database,
  run: (command: OperatorCommand) => Promise<OperatorAnswer>,
): Promise<Server> {
  const perform = async (command: SocketCommand): Promise<OperatorAnswer> => {
    if (command.command === 'ledger-check') {
      const problems = await checkLedger(database.db);
      return { ok: problems.length === 0, message: ledgerReport(problems) };
    }
    if (command.command !== 'dump') return run(command);
    await writeDump(database, command.file);
    return { ok: true, message: `The database was dumped to ${command.file}.` };
  };
  const socketPath = operatorSocketOf(dataDir);
  // Left by a server that was killed: nothing listens on it any more (the data directory lock
  // proves this process is the only server).
  await unlink(socketPath).catch(() => {});
  const server = createServer((socket) => {
    let input = '';
    socket.setEncoding('utf8');
    socket.setTimeout(10_000, () => socket.destroy());
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: string) => {
      input += chunk;
      if (input.length > 4096) return socket.destroy();
      const newline = input.indexOf('\n');
      if (newline === -1) return;
      // The whole command is in: it may take its time (a large dump) without being cut off.
      socket.setTimeout(0);
      let parsed: ReturnType<typeof socketCommandSchema.safeParse>;
      try {
        parsed = socketCommandSchema.safeParse(JSON.parse(input.slice(0, newline)));
      } catch {
        return socket.end(`${JSON.stringify({ ok: false, message: 'not JSON' })}\n`);
      }
      if (!parsed.success) {
        return socket.end(`${JSON.stringify({ ok: false, message: USAGE })}\n`);
      }
      perform(parsed.data).then(
        (answer) => socket.end(`${JSON.stringify(answer)}\n`),
        (err: Error) => socket.end(`${JSON.stringify({ ok: false, message: err.message })}\n`),
      );
    });
  });
  // Made readable by its owner only from the start (umask), not after a moment open to others.
  const umask = process.umask(0o077);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
  } finally {
    process.umask(umask);
  }
  await chmod(socketPath, 0o600);
  server.unref();
  return server;
}

/** Sends a command to the running server; undefined when no server listens. */
export function askRunningServer(
  dataDir: string,
  command: SocketCommand,
): Promise<OperatorAnswer | undefined> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(operatorSocketOf(dataDir));
    let output = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify(command)}\n`));
    socket.on('data', (chunk: string) => {
      output += chunk;
    });
    socket.on('end', () => {
      try {
        resolve(JSON.parse(output) as OperatorAnswer);
      } catch {
        reject(new Error(`the server answered: ${output}`));
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ECONNREFUSED') resolve(undefined);
      else reject(err);
    });
  });
}
