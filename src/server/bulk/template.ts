/**
 * The CSV template of bulk listing (decision 057): the form's labels as its header and one
 * example phone, its choices written as the form shows them. It starts with a UTF-8 byte order
 * mark, so Excel opens it as UTF-8, and is written by `toCsv`, which neutralises formulas.
 */
import { BULK_COLUMNS, BULK_PHOTO_SEPARATOR } from '../../shared/bulk';
import { type CsvCell, toCsv } from '../csv';

/** The example phone, in the order of BULK_COLUMNS. Its IMEI's last digit checks out (Luhn). */
const EXAMPLE: readonly CsvCell[] = [
  'Apple',
  'iPhone 15 Pro',
  '8 GB',
  '128 GB',
  'Natural Titanium',
  '3,274 mAh',
  '88%',
  '356938035643809',
  '$750',
  '$999',
  '14 months',
  'Good',
  // Not `+1 …`: a cell starting with + is written with an apostrophe before it, which every
  // spreadsheet would show in the example.
  '(512) 555-0100',
  'Austin, TX',
  'Unlocked, with its box and a charger. A light scratch on the frame.',
  ['front.jpg', 'back.jpg'].join(BULK_PHOTO_SEPARATOR),
];

/** The template a seller downloads, fills with a row per phone and uploads with a ZIP of photos. */
export function bulkTemplateCsv(): string {
  return `\uFEFF${toCsv(BULK_COLUMNS, [EXAMPLE])}`;
}
