/** Bulk listing's files as a seller fills them (issue 35): the template's rows, as CSV bytes. */
import { toCsv } from '../../src/server/csv';
import { BULK_COLUMNS, type BulkColumn } from '../../src/shared/bulk';
import { uniqueImei, uniqueWord } from './factories';

export type BulkRow = Record<BulkColumn, string>;

/** A phone's row as a shop fills in the template: a new model and IMEI, `overrides` by column. */
export function bulkRow(overrides: Partial<BulkRow> = {}): BulkRow {
  return {
    Category: 'Samsung',
    'Model name': `Galaxy ${uniqueWord()}`,
    RAM: '8 GB',
    Storage: '128 GB',
    Color: 'Black',
    'Battery (mAh)': '4,500 mAh',
    'Battery health (%)': '90%',
    IMEI: uniqueImei(),
    'Resale price ($)': '$420',
    'Original price ($)': '$799',
    'Time used (months)': '14 months',
    Condition: 'Good',
    'Phone number': '+1 512 555 0100',
    Location: 'Austin, TX',
    Description: 'Unlocked, with its box.',
    Photos: 'front.jpg',
    ...overrides,
  };
}

/** The rows as the template's CSV: a UTF-8 BOM, the header, a line a row. */
export const bulkCsv = (rows: readonly BulkRow[]): Buffer =>
  Buffer.from(
    `\uFEFF${toCsv(
      BULK_COLUMNS,
      rows.map((r) => BULK_COLUMNS.map((c) => r[c])),
    )}`,
  );
