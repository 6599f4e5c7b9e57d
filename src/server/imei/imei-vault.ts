/**
 * How an IMEI is kept (issue 19, decision 024). A listing's IMEI is found again by a keyed hash
 * (HMAC-SHA256), so duplicates and blocked IMEIs are detected, while a copy of the database alone
 * cannot be turned back into IMEIs: with 10^14 possible IMEIs a plain hash would fall to a
 * brute force in hours. The whole IMEI is also sealed (AES-256-GCM) for its seller and the admin.
 * Both keys derive from one secret (IMEI_KEY, or one generated into DATA_DIR/secrets).
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/** An IMEI as a listing stores it. */
export type SealedImei = { hash: string; last4: string; sealed: string };

const IV_BYTES = 12;
const TAG_BYTES = 16;

export class ImeiVault {
  readonly #hashKey: Buffer;
  readonly #sealKey: Buffer;

  constructor(secret: string) {
    const derive = (info: string) =>
      Buffer.from(hkdfSync('sha256', secret, 'phone-market imei', info, 32));
    this.#hashKey = derive('hash');
    this.#sealKey = derive('seal');
  }

  /** The keyed hash of 15 digits: equal IMEIs, equal hashes. */
  hash(digits: string): string {
    return createHmac('sha256', this.#hashKey).update(digits).digest('hex');
  }

  /** The hash, the last four digits and the sealed whole of 15 digits. */
  keep(digits: string): SealedImei {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#sealKey, iv);
    const body = Buffer.concat([cipher.update(digits, 'utf8'), cipher.final()]);
    return {
      hash: this.hash(digits),
      last4: digits.slice(-4),
      sealed: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url'),
    };
  }

  /** The digits `keep` sealed; throws when the seal was made with another key or altered. */
  open(sealed: string): string {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.#sealKey, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([
      decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  }
}
