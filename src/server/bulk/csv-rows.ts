/**
 * Bulk listing's CSV, row by row (decision 057): each row's cells read as Add A Product reads its
 * fields, by `productInputSchema`, each problem keyed by the column it is about and worded as the
 * form's server answer words it. A row's problems fail that row only; the file's are
 * `csv-records.ts`'s.
 */
import { productInputSchema } from '../../shared/api';
import {
  BULK_COLUMNS,
  BULK_PHOTO_SEPARATOR,
  type BulkColumn,
  type BulkProblem,
} from '../../shared/bulk';
import {
  CATEGORIES,
  CONDITION_OPTIONS,
  PRODUCT_PHOTOS_MAX,
  RAM_OPTIONS,
  STORAGE_OPTIONS,
} from '../../shared/constants';
import { imeiDigits, imeiProblem } from '../../shared/imei';
import { fieldOfMessage, LISTING_LABELS, type ListingField } from '../../shared/listing-input';
import { type CsvRecord, readCsvRecords } from './csv-records';

export type BulkCsvRow = {
  /** The row as a spreadsheet numbers it: the header is 1, the first phone 2 (see CsvRecord). */
  row: number;
  /** The Model name cell, trimmed ('' if none): how the page names the row. */
  model: string;
  /** The row's problems found in its cells, keyed by column label or `Row`. */
  problems: BulkProblem[];
  /** The Photos cell's file names as written, the cover first. */
  photoNames: string[];
  /** The body Add A Product would send, but for its photos (`image`, `photos`). */
  body: Record<string, unknown>;
};

export type BulkCsv = { ok: false; message: string } | { ok: true; rows: BulkCsvRow[] };

/**
 * What stands for a row's photos while its cells are read, so that only its cells give problems;
 * `withPhotos` reads the row again with its real photos.
 */
const PHOTO_STAND_IN = '/images/bulk-photo-stand-in.webp';

/** A choice as compared: its case and spaces do not count (`apple`, `8gb`, `Brand new`). */
const comparable = (text: string) => text.toLowerCase().replace(/\s+/g, '');

type Choice = { values: Map<string, string>; shown: readonly string[] };
const choice = (
  pairs: readonly (readonly [typed: string, value: string])[],
  shown: readonly string[],
) => ({
  values: new Map(pairs.map(([typed, value]) => [comparable(typed), value])),
  shown,
});
const same = (values: readonly string[]) => values.map((v) => [v, v] as const);

/** Each choice as the form shows it (by which the file is read), and its value in the body. */
const CHOICES: Partial<Record<ListingField, Choice>> = {
  categoryId: choice(
    CATEGORIES.flatMap((c) => [
      [c.name, c.categoryId],
      [c.categoryId, c.categoryId],
      // A spreadsheet shows a code typed as 01 as the number 1, and saves it so.
      [String(Number(c.categoryId)), c.categoryId],
    ]),
    CATEGORIES.map((c) => c.name),
  ),
  'specificatons.ram': choice(same(RAM_OPTIONS), RAM_OPTIONS),
  'specificatons.storage': choice(
    [...same(STORAGE_OPTIONS), ['1 TB', '1 GTB']],
    STORAGE_OPTIONS.map((s) => (s === '1 GTB' ? '1 TB' : s)),
  ),
  condition: choice(same(CONDITION_OPTIONS), CONDITION_OPTIONS),
};

/** The fields of the body, each by its column. Photos are the ZIP's, read by `withPhotos`. */
const FIELDS = [
  'categoryId',
  'modelName',
  'specificatons.ram',
  'specificatons.storage',
  'specificatons.color',
  'specificatons.battery',
  'batteryHealth',
  'imei',
  'resellPrice',
  'originalPrice',
  'timeUsed',
  'condition',
  'sellerNumber',
  'location',
  'description',
] as const satisfies readonly ListingField[];

/** The apostrophe our own CSV writer (`csv.ts`) puts before a cell that starts like a formula. */
const NEUTRALISED = /^'(?=[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20])/;
/** A formula's start: `=` or `@`, or their full-width forms. */
const FORMULA = /^[=@\uFF1D\uFF20]/;
/**
 * `+` or `-` (or full-width) followed by a function call (`+HYPERLINK(`): a formula too. A plain
 * leading sign stays (`+1 512 555 0100`, `- no scratches`): it is text people mean.
 */
const SIGNED_CALL = /^[+\-\uFF0B\uFF0D]\s*[A-Za-z_][\w.]*\(/;

/** Why a cell is a formula a spreadsheet saved as its text, or null. */
function formulaProblem(column: BulkColumn, cell: string): BulkProblem | null {
  const text = cell.trim();
  if (!FORMULA.test(text) && !SIGNED_CALL.test(text)) return null;
  return {
    column,
    message: `${column}: starts like a spreadsheet formula (${text.charAt(0)}); write the text itself, not a formula`,
  };
}

/** A number a spreadsheet wrote in its own notation (`3.56938E+14`), the IMEI's digits lost. */
const SCIENTIFIC = /^\d(\.\d+)?e\+?\d+$/i;

/** The column a schema issue is about: by its path, else by the label its message starts with. */
function columnOf(path: readonly PropertyKey[], message: string): BulkColumn | 'Row' {
  const labelOf = (key: string) =>
    key in LISTING_LABELS ? LISTING_LABELS[key as ListingField] : undefined;
  const field = fieldOfMessage(message);
  return (
    labelOf(path.map(String).join('.')) ??
    (field && LISTING_LABELS[field]) ??
    labelOf(String(path[0] ?? '')) ??
    'Row'
  );
}

/** A schema issue in the form's words: named by its label, as the form's server answer names it. */
export function problemOf(issue: { path: readonly PropertyKey[]; message: string }): BulkProblem {
  const column = columnOf(issue.path, issue.message);
  if (column === 'Row' || fieldOfMessage(issue.message)) return { column, message: issue.message };
  return { column, message: `${column}: ${issue.message.replace(/^[\w.]+: /, '')}` };
}

/** Problems in the order of the row's columns, as the page shows them; the row's own last. */
export const inColumnOrder = (problems: readonly BulkProblem[]) => {
  const order = (p: BulkProblem) =>
    p.column === 'Row' ? BULK_COLUMNS.length : BULK_COLUMNS.indexOf(p.column);
  return problems.toSorted((a, b) => order(a) - order(b));
};

/** The base name of a photo as a row or a ZIP names it, compared in any case. */
export const photoKey = (name: string): string =>
  (name.split(/[/\\]/).at(-1) ?? name).toLowerCase();

/** The Photos cell's names, and its problems. */
function photosOf(cell: string): { names: string[]; problems: BulkProblem[] } {
  const label = LISTING_LABELS.photos;
  const names = cell
    .split(BULK_PHOTO_SEPARATOR)
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const problems: BulkProblem[] = [];
  if (names.length === 0)
    problems.push({
      column: label,
      message: `${label}: name the phone's photos in the ZIP, the cover first, such as front.jpg${BULK_PHOTO_SEPARATOR}back.jpg`,
    });
  if (names.length > PRODUCT_PHOTOS_MAX)
    problems.push({ column: label, message: `${label}: at most ${PRODUCT_PHOTOS_MAX} photos` });
  const seen = new Set<string>();
  for (const name of names) {
    const key = photoKey(name);
    if (seen.has(key))
      problems.push({
        column: label,
        message: `${label}: ${name} is named twice; name each photo once`,
      });
    seen.add(key);
  }
  return { names, problems };
}

/** One record as a row: its body, its photos' names and its cells' problems. */
function rowOf(record: CsvRecord): BulkCsvRow & { imei: string | null } {
  const problems: BulkProblem[] = [];
  const cellOf = (column: BulkColumn) => {
    const cell = (record.cells[column] ?? '').replace(NEUTRALISED, '');
    const formula = formulaProblem(column, cell);
    if (formula) problems.push(formula);
    return cell;
  };
  const values: Partial<Record<ListingField, string>> = {};
  for (const field of FIELDS) {
    const column = LISTING_LABELS[field];
    const cell = cellOf(column);
    const options = CHOICES[field];
    if (options) {
      const chosen = options.values.get(comparable(cell));
      if (chosen) {
        values[field] = chosen;
        continue;
      }
      if (!problems.some((p) => p.column === column))
        problems.push({ column, message: `${column}: choose one of ${options.shown.join(', ')}` });
    }
    // A blank cell is a field not given, so the schema words it as the form does ("required").
    if (cell.trim() === '') continue;
    if (field === 'imei' && SCIENTIFIC.test(cell.trim()))
      problems.push({
        column,
        message: `${column}: the spreadsheet wrote it as a number (${cell.trim()}) and lost digits; format the column as text and type the 15 digits again`,
      });
    values[field] = cell;
  }
  const photos = photosOf(cellOf(LISTING_LABELS.photos));
  problems.push(...photos.problems);
  if (record.beyond > 0)
    problems.push({
      column: 'Row',
      message: `This row has cells beyond the header's last column (${record.beyond} filled); move them into their columns or delete them`,
    });
  const body: Record<string, unknown> = {
    categoryId: values.categoryId,
    modelName: values.modelName,
    specificatons: {
      ram: values['specificatons.ram'],
      storage: values['specificatons.storage'],
      color: values['specificatons.color'],
      battery: values['specificatons.battery'],
    },
    // As the form sends it: none is null, whether its cell is blank or its column left out.
    batteryHealth: values.batteryHealth ?? null,
    imei: values.imei,
    resellPrice: values.resellPrice,
    originalPrice: values.originalPrice,
    timeUsed: values.timeUsed,
    condition: values.condition,
    sellerNumber: values.sellerNumber,
    location: values.location,
    description: values.description,
  };
  const read = productInputSchema.safeParse({
    ...body,
    image: PHOTO_STAND_IN,
    photos: [PHOTO_STAND_IN],
  });
  // A column with a problem of its cell already (a formula, a choice not offered) says it once.
  const said = new Set(problems.map((p) => p.column));
  if (!read.success)
    for (const issue of read.error.issues) {
      const problem = problemOf(issue);
      if (!said.has(problem.column)) problems.push(problem);
    }
  const imei =
    values.imei !== undefined && imeiProblem(values.imei) === null && !said.has(LISTING_LABELS.imei)
      ? imeiDigits(values.imei)
      : null;
  return {
    row: record.row,
    model: (values.modelName ?? '').trim(),
    problems: inColumnOrder(problems),
    photoNames: photos.names,
    body,
    imei,
  };
}

/**
 * The rows of a bulk listing CSV, each with its cells' problems, or the one sentence that refuses
 * the file. Two rows of one IMEI both fail: either may be the mistyped one.
 */
export function readBulkCsv(bytes: Buffer): BulkCsv {
  const records = readCsvRecords(bytes);
  if (!records.ok) return records;
  const rows = records.records.map(rowOf);
  const rowsOf = new Map<string, number[]>();
  for (const { imei, row } of rows) if (imei) rowsOf.set(imei, [...(rowsOf.get(imei) ?? []), row]);
  return {
    ok: true,
    rows: rows.map(({ imei, ...row }) => {
      const other = imei ? rowsOf.get(imei)?.find((r) => r !== row.row) : undefined;
      if (other === undefined) return row;
      const column = LISTING_LABELS.imei;
      return {
        ...row,
        problems: [
          ...row.problems,
          { column, message: `${column}: the same IMEI as row ${other}; list each phone once` },
        ],
      };
    }),
  };
}
