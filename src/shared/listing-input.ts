/**
 * A listing's fields as people type them (issue 19): `$1,200`, `4,500 mAh`, `18 months`,
 * `1.5 years`. Each reader answers the value as stored, or why it cannot be read, in a sentence
 * that names the field as Add A Product labels it (never an internal name such as `resellPrice`).
 * The server's schemas (api.ts) and the browser's form read with the same functions.
 */
import { BATTERY_HEALTH_MAX, BATTERY_HEALTH_MIN } from './constants';

/** The form's label of each field, by its path in the body (`specificatons.battery`). */
export const LISTING_LABELS = {
  categoryId: 'Category',
  modelName: 'Model name',
  'specificatons.ram': 'RAM',
  'specificatons.storage': 'Storage',
  'specificatons.color': 'Color',
  'specificatons.battery': 'Battery (mAh)',
  batteryHealth: 'Battery health (%)',
  resellPrice: 'Resale price ($)',
  originalPrice: 'Original price ($)',
  timeUsed: 'Time used (months)',
  condition: 'Condition',
  sellerNumber: 'Phone number',
  location: 'Location',
  image: 'Photos',
  photos: 'Photos',
  description: 'Description',
  imei: 'IMEI',
} as const;
export type ListingField = keyof typeof LISTING_LABELS;

/** The field a message names by its label (`IMEI: This phone is already listed` → `imei`), if any. */
export function fieldOfMessage(message: string): ListingField | undefined {
  const colon = message.indexOf(': ');
  if (colon < 1) return undefined;
  const label = message.slice(0, colon);
  return (Object.keys(LISTING_LABELS) as ListingField[]).find((k) => LISTING_LABELS[k] === label);
}

/**
 * A message shown beside its own field, without the label it starts with, which the field shows
 * already (`IMEI: a digit is mistyped` → `A digit is mistyped`): the field reads "IMEI  A digit
 * is mistyped", not "IMEI  IMEI: a digit…". A message naming no field of the form stays as is.
 */
export function besideItsField(message: string): string {
  const field = fieldOfMessage(message);
  if (!field) return message;
  const rest = message.slice(LISTING_LABELS[field].length + 2);
  return `${rest.charAt(0).toUpperCase()}${rest.slice(1)}`;
}

/** What a reader answers: the value, or the sentence that says why it cannot be read. */
export type Read<T> = { ok: true; value: T } | { ok: false; message: string };
const ok = <T>(value: T): Read<T> => ({ ok: true, value });
const problem = (field: ListingField, says: string): Read<never> => ({
  ok: false,
  message: `${LISTING_LABELS[field]}: ${says}`,
});

/** Spaces people type inside numbers, the no-break ones included. */
const SPACES = /[\s\u00a0\u202f]+/g;
/** A number with its thousands grouped by commas or spaces (`1,200`, `1 200`) or not (`1200`). */
const GROUPED = /^(\d{1,3}(?:[,\s\u00a0\u202f]\d{3})+|\d+)(\.\d+)?$/;

/** The number in `typed` written with optional thousands separators, or null. */
function groupedNumber(typed: string): number | null {
  const match = GROUPED.exec(typed);
  if (!match) return null;
  return Number(`${(match[1] ?? '').replace(/[^\d]/g, '')}${match[2] ?? ''}`);
}

const isBlank = (v: unknown) => v === undefined || v === null || String(v).trim() === '';
const asText = (v: unknown) =>
  typeof v === 'number' ? String(v) : typeof v === 'string' ? v : null;

/** Whether dollars `n` are a whole number of cents, but for binary noise (0.1 + 0.2 is 30 cents). */
const wholeCents = (n: number) => {
  const cents = n * 100;
  return Math.abs(cents - Math.round(cents)) <= Math.abs(cents) * 1e-12;
};

export const PRICE_MAX = 1_000_000;

/** A price: `1200`, `$1,200`, `1,200.50`, `1 200`, `$ 99.99`. At least a cent, at most two decimals. */
export function readDollars(field: 'resellPrice' | 'originalPrice', typed: unknown): Read<number> {
  if (isBlank(typed)) return problem(field, 'this field is required');
  const text = asText(typed);
  const n =
    typeof typed === 'number'
      ? typed
      : text === null
        ? null
        : groupedNumber(
            text
              .trim()
              .replace(/^\$\s*/, '')
              .replace(/\s*(\$|usd|dollars?)$/i, ''),
          );
  if (n === null || !Number.isFinite(n))
    return problem(field, 'write the price in dollars, such as 1200, $1,200 or 1,200.50');
  if (n < 0.01) return problem(field, 'the price must be at least $0.01');
  if (n > PRICE_MAX) return problem(field, 'the price must be at most $1,000,000');
  if (!wholeCents(n)) return problem(field, 'at most two decimals (cents), such as 1,200.50');
  return ok(Math.round(n * 100) / 100);
}

export const BATTERY_MAX = 100_000;

/** A battery's capacity in mAh: `4500`, `4,500`, `4 500`, `4500 mAh`, `4,500mAh`. */
export function readBattery(typed: unknown): Read<number> {
  const field = 'specificatons.battery';
  if (isBlank(typed)) return problem(field, 'this field is required');
  const text = asText(typed);
  const n =
    typeof typed === 'number'
      ? typed
      : text === null
        ? null
        : groupedNumber(text.trim().replace(/\s*mah$/i, ''));
  if (n === null || !Number.isInteger(n) || n < 1)
    return problem(field, 'write the capacity as a whole number of mAh, such as 4500 or 4,500 mAh');
  if (n > BATTERY_MAX) return problem(field, 'at most 100,000 mAh');
  return ok(n);
}

export const TIME_USED_MAX_MONTHS = 1200;
const MONTHS = /^(m|mo|mos|mon|mons|mth|mths|month|months)$/i;
const YEARS = /^(y|yr|yrs|year|years)$/i;

/**
 * Time used, stored in whole months (rounded): `18`, `18 months`, `18 mo`, `1.5 years`,
 * `2 yrs`, `1 year`.
 */
export function readTimeUsed(typed: unknown): Read<number> {
  const field = 'timeUsed';
  if (isBlank(typed)) return problem(field, 'this field is required');
  const unreadable = problem(
    field,
    'write it in months, such as 18, or in years, such as 1.5 years',
  );
  let months: number;
  if (typeof typed === 'number') months = typed;
  else if (typeof typed === 'string') {
    const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)\.?$/i.exec(typed.trim().replace(SPACES, ' '));
    if (!match) return unreadable;
    const amount = Number(match[1]);
    const unit = match[2] ?? '';
    if (unit === '' || MONTHS.test(unit)) months = amount;
    else if (YEARS.test(unit)) months = amount * 12;
    else return unreadable;
  } else return unreadable;
  if (!Number.isFinite(months) || months < 0) return unreadable;
  const whole = Math.round(months);
  if (whole > TIME_USED_MAX_MONTHS) return problem(field, 'at most 1200 months (100 years)');
  return ok(whole);
}

/** Battery health in percent, optional: `85`, `85%`, `85 %`; blank is none (null). */
export function readBatteryHealth(typed: unknown): Read<number | null> {
  const field = 'batteryHealth';
  if (isBlank(typed)) return ok(null);
  const text = asText(typed);
  const n =
    typeof typed === 'number'
      ? typed
      : text !== null && /^\d+\s*%?$/.test(text.trim())
        ? Number.parseInt(text.trim(), 10)
        : null;
  const range = `a whole number from ${BATTERY_HEALTH_MIN} to ${BATTERY_HEALTH_MAX}, or leave it empty`;
  if (n === null || !Number.isInteger(n) || n < BATTERY_HEALTH_MIN || n > BATTERY_HEALTH_MAX)
    return problem(field, range);
  return ok(n);
}
