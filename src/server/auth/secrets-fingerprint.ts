/**
 * Every server on one database must sign and read with the same secrets: a session made on one
 * server is otherwise "Invalid access token" on the next, and an IMEI sealed by one cannot be
 * checked by another. The first server to start keeps a fingerprint of each secret in the
 * database (an HMAC keyed by the secret: it proves sameness and reveals nothing of the secret);
 * a server whose secret differs refuses to start, naming the variable (decision 030).
 */
import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { serverSettings } from '../db/schema';

/** The secrets that must agree, by the variable that sets each. */
export type SharedSecrets = Record<'BETTER_AUTH_SECRET' | 'JWT_SECRET' | 'IMEI_KEY', string>;

const SETTING = 'secrets-fingerprint';

export class SecretsMismatchError extends Error {}

export const fingerprintOf = (secret: string): string =>
  createHmac('sha256', secret).update('phone-market secrets fingerprint v1').digest('hex');

/**
 * Keeps this server's fingerprints when the database has none (or when `acceptNew` says the
 * operator is changing secrets on purpose), and otherwise throws `SecretsMismatchError` naming
 * every variable that differs. Run under the start lock, so two first starts cannot both write.
 */
export async function checkSecretsAgree(
  db: Db,
  secrets: SharedSecrets,
  { acceptNew = false }: { acceptNew?: boolean } = {},
): Promise<void> {
  const ours = Object.fromEntries(
    Object.entries(secrets).map(([name, secret]) => [name, fingerprintOf(secret)]),
  );
  const [kept] = await db
    .select({ value: serverSettings.value })
    .from(serverSettings)
    .where(eq(serverSettings.name, SETTING));
  const theirs = kept ? (JSON.parse(kept.value) as Record<string, string>) : {};
  // A secret this database has no fingerprint of yet (one added by a later version) is agreed.
  const differing = Object.keys(ours).filter((name) => theirs[name] && theirs[name] !== ours[name]);
  if (differing.length > 0 && !acceptNew) {
    throw new SecretsMismatchError(
      differing
        .map(
          (name) =>
            `${name} differs from the one the other servers of this database were started with.`,
        )
        .concat(
          'Give every server the same value (the environment, or the same DATA_DIR/secrets files).',
          'To change it on purpose, stop every server and start one with ACCEPT_NEW_SECRETS=1;',
          'sessions and tokens made with the old value end (a changed IMEI_KEY also loses every',
          'blocked IMEI and sealed IMEI: decision 024).',
        )
        .join('\n'),
    );
  }
  const value = JSON.stringify({ ...theirs, ...ours });
  if (kept?.value === value) return;
  await db
    .insert(serverSettings)
    .values({ name: SETTING, value })
    .onConflictDoUpdate({ target: serverSettings.name, set: { value, updatedAt: new Date() } });
}
