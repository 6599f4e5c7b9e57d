/**
 * An IMEI as a seller types it (issue 19): the 15 digits a phone shows when *#06# is dialled,
 * the last a Luhn check digit. Spaces, dashes and slashes between digit groups are allowed.
 */

import { luhnValid } from './luhn';

export const IMEI_LENGTH = 15;

/** The digits of `typed` without the separators people type between groups. */
export const imeiDigits = (typed: string): string => typed.replace(/[\s\-/.]/g, '');

/** Why `typed` is not an IMEI, in the words of the form's label; null when it is one. */
export function imeiProblem(typed: string): string | null {
  const digits = imeiDigits(typed);
  if (!/^\d+$/.test(digits)) return 'IMEI: only digits (dial *#06# on the phone to see it)';
  if (digits.length !== IMEI_LENGTH)
    return `IMEI: ${IMEI_LENGTH} digits, this has ${digits.length} (dial *#06# on the phone to see it)`;
  if (!luhnValid(digits)) return 'IMEI: a digit is mistyped (its last digit does not check out)';
  return null;
}
