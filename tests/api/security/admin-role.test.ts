/**
 * Nobody becomes admin by signing up (security issue, item 1). The role comes from the operator
 * (`npm run admin`), from the demo seed in the database it created, or from an ADMIN_EMAILS
 * address whose owner proved it (a verified identity such as Google's).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startServer } from '../../../scripts/lib/server-process';
import { authUsers } from '../../../src/server/db/schema';
import { setAdmin } from '../../../src/server/repositories/users';
import { createAccount, createAdmin, GOOD_PASSWORD } from '../../helpers/accounts';
import { runScript } from '../../helpers/run-script';
import { buildTestApp, createPostgresDatabase, type TestApp } from '../../helpers/test-app';

const CONFIGURED = 'owner@corp.example';
let t: TestApp;
beforeAll(async () => {
  // SEED_DEMO is on by default: the demo admin's address must still mean nothing here.
  t = await buildTestApp({ ADMIN_EMAILS: CONFIGURED });
});
afterAll(() => t.close());

const isAdmin = async (email: string) =>
  (await t.app.inject(`/api/users/admin/${email}`)).json().isAdmin;
const listBuyers = (bearer: Record<string, string>) =>
  t.app.inject({ url: '/api/users/buyer', headers: bearer });

describe('the admin role', () => {
  it('is not had by signing up with the demo admin address on a database the seed never made', async () => {
    const squatter = await createAccount(t.app, 'user', 'admin@example.com');
    expect(await isAdmin('admin@example.com')).toBe(false);
    expect((await listBuyers(squatter.bearer)).statusCode).toBe(403);
  });

  it('is not had by signing up with an ADMIN_EMAILS address, until the owner proves it', async () => {
    const account = await createAccount(t.app, 'user', CONFIGURED);
    expect(await isAdmin(CONFIGURED)).toBe(false);
    expect((await listBuyers(account.bearer)).statusCode).toBe(403);
    // What a Google sign-in with a verified e-mail records for the identity.
    await t.database.db
      .update(authUsers)
      .set({ emailVerified: true })
      .where(eq(authUsers.email, CONFIGURED));
    expect(await isAdmin(CONFIGURED)).toBe(true);
    expect((await listBuyers(account.bearer)).statusCode).toBe(200);
  });

  it('lets an admin delete an account squatting an unproven ADMIN_EMAILS address', async () => {
    const other = await buildTestApp({ ADMIN_EMAILS: 'boss@corp.example' });
    try {
      const squatter = await createAccount(other.app, 'user', 'boss@corp.example');
      const admin = await createAdmin(other.app);
      const res = await other.app.inject({
        method: 'DELETE',
        url: `/api/users?id=${squatter.id}`,
        headers: admin.bearer,
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('is granted and revoked by the operator, and a token follows at once', async () => {
    const account = await createAdmin(t.app);
    expect(await isAdmin(account.email)).toBe(true);
    expect((await listBuyers(account.bearer)).statusCode).toBe(200);
    expect(await setAdmin(t.database.db, account.email, false)).toBe('changed');
    expect((await listBuyers(account.bearer)).statusCode).toBe(403);
  });
});

/** `npm run admin -- …` as the operator runs it, with the server's environment. */
const adminCommand = (args: string[], env: Record<string, string>) =>
  runScript('scripts/admin.ts', args, env);

describe('npm run admin, while the server runs', () => {
  let dataDir: string;
  let drop: (() => Promise<void>) | undefined;
  let databaseUrl: string | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'phone-market-admin-'));
    const postgres = inject('postgresUrl');
    if (postgres) {
      const created = await createPostgresDatabase(postgres);
      databaseUrl = created.url;
      drop = created.drop;
    }
  });
  afterAll(async () => {
    await drop?.();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('grants and revokes an existing account, and says how to make a missing one', async () => {
    const env = { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
    const server = await startServer({ dataDir, databaseUrl });
    try {
      const email = 'operator-made@test.example';
      const signUp = await fetch(`${server.url}/api/auth/sign-up/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.url },
        body: JSON.stringify({ email, name: 'Olga Operator', password: GOOD_PASSWORD }),
      });
      expect(signUp.status).toBe(200);
      const cookie = signUp.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const token = await fetch(`${server.url}/api/jwt?email=${email}`, { headers: { cookie } });
      const bearer = { authorization: `bearer ${(await token.json()).accessToken}` };
      const check = async () =>
        (await (await fetch(`${server.url}/api/users/admin/${email}`)).json()).isAdmin;
      expect(await check()).toBe(false);

      const granted = await adminCommand(['grant', email], env);
      expect(granted.output).toContain(`${email} is now an admin.`);
      expect(granted.code).toBe(0);
      expect(await check()).toBe(true);
      expect((await fetch(`${server.url}/api/users/buyer`, { headers: bearer })).status).toBe(200);
      expect((await adminCommand(['list'], env)).output).toContain(email);

      const revoked = await adminCommand(['revoke', email], env);
      expect(revoked.output).toContain(`${email} is no longer an admin.`);
      expect(await check()).toBe(false);

      const missing = await adminCommand(['grant', 'nobody@test.example'], env);
      expect(missing.code).toBe(1);
      expect(missing.output).toContain('No account uses nobody@test.example');
      expect(missing.output).toContain('signs up first');

      const wrong = await adminCommand(['make', 'x'], env);
      expect(wrong.code).toBe(2);
      expect(wrong.output).toContain('usage: npm run admin');
    } finally {
      await server.stop();
    }
    // Started with SEED_DEMO=0: the banner lists no demo account that does not exist.
    expect(server.output()).toContain('is running at');
    expect(server.output()).not.toContain('demo accounts');
  });
});
