/**
 * Bulk listing's CSV as a file (decision 057): its size, its encoding, its delimiter, its
 * records' size, its header and its number of phones. Each refusal is one sentence about the
 * whole file, and nothing of it is listed; a problem of one row's cells is `csv-rows.ts`'s.
 */
import { isUtf8 } from 'node:buffer';
import { CsvError } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import {
  BULK_COLUMNS,
  BULK_CSV_MAX_BYTES,
  BULK_MAX_ROWS,
  BULK_RECORD_MAX_BYTES,
  type BulkColumn,
} from '../../shared/bulk';
import { LISTING_LABELS } from '../../shared/listing-input';

/**
 * One phone's record: its row as a spreadsheet numbers it (each record counts one, a cell's line
 * breaks do not, blank rows do: row 7 is the seventh row the seller sees), its cells by column
 * (a column the header leaves out is absent), and how many filled cells lie beyond the header.
 */
export type CsvRecord = {
  row: number;
  cells: Partial<Record<BulkColumn, string>>;
  beyond: number;
};

export type CsvRecords = { ok: false; message: string } | { ok: true; records: CsvRecord[] };

const SAVE_AS = 'save it from your spreadsheet as "CSV UTF-8" and upload it again';
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** Columns a file may leave out: Battery health, which the form does not require either. */
const OPTIONAL: readonly BulkColumn[] = [LISTING_LABELS.batteryHealth];

const refuse = (message: string): CsvRecords => ({ ok: false, message });
const kilobytes = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

/** The line (from 1) of the byte at `offset`. */
const lineAt = (bytes: Buffer, offset: number) => {
  let line = 1;
  for (let i = bytes.indexOf(0x0a); i !== -1 && i < offset; i = bytes.indexOf(0x0a, i + 1)) line++;
  return line;
};

/**
 * Why the bytes are not UTF-8 text, naming the encoding they look like and the line, or null.
 * Guessing an encoding would store "CafÃ©" unseen until a buyer reads it, so none is guessed.
 */
function encodingProblem(bytes: Buffer): string | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return `The file is saved as UTF-16 (line 1); ${SAVE_AS}.`;
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return `The file is saved as UTF-16 (line 1); ${SAVE_AS}.`;
  const zero = bytes.indexOf(0);
  if (zero !== -1)
    return `The file is saved as UTF-16 or is no text (a zero byte on line ${lineAt(bytes, zero)}); ${SAVE_AS}.`;
  if (isUtf8(bytes)) return null;
  // A byte sequence of UTF-8 never holds a line feed, so the first line that is not UTF-8 alone
  // is the one to name.
  let start = 0;
  for (let line = 1; start <= bytes.length; line++) {
    const end = bytes.indexOf(0x0a, start);
    const stop = end === -1 ? bytes.length : end;
    if (!isUtf8(bytes.subarray(start, stop)))
      return `The file is not UTF-8: line ${line} looks like Windows-1252 ("ANSI"); ${SAVE_AS}.`;
    start = stop + 1;
  }
  return `The file is not UTF-8; ${SAVE_AS}.`;
}

/** `;` when the header line holds more of it than of `,` (no label holds either), else `,`. */
function delimiterOf(body: Buffer): ',' | ';' {
  const end = body.indexOf(0x0a);
  const header = body.subarray(0, end === -1 ? body.length : end).toString('utf8');
  const count = (c: string) => header.split(c).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

/** A header cell or label as compared: its case and spaces do not count. */
const comparable = (label: string) => label.toLowerCase().replace(/\s+/g, '');
/** Each column by its label, and by its label without the unit in brackets (`battery`). */
const COLUMN_OF = new Map<string, BulkColumn>(
  BULK_COLUMNS.flatMap((column) => [
    [comparable(column), column],
    [comparable(column.replace(/\s*\([^)]*\)$/, '')), column],
  ]),
);

/** The column of each header cell, or the refusal of the header. */
function columnsOf(header: readonly string[]): { ok: false; message: string } | BulkColumn[] {
  const start = 'start from the template, whose first row names every column';
  const cells = header.map((cell) => cell.trim());
  // Spreadsheets may save empty cells after the last column; an empty one between names is not that.
  while (cells.length > 0 && cells.at(-1) === '') cells.pop();
  const columns: BulkColumn[] = [];
  for (const [i, cell] of cells.entries()) {
    if (cell === '')
      return { ok: false, message: `The header's column ${i + 1} has no name; ${start}.` };
    const column = COLUMN_OF.get(comparable(cell));
    if (!column)
      return {
        ok: false,
        message: `The header's column "${cell}" is none of the template's (${BULK_COLUMNS.join(', ')}); correct it or ${start}.`,
      };
    if (columns.includes(column))
      return { ok: false, message: `The header names the column ${column} twice; ${start}.` };
    columns.push(column);
  }
  const missing = BULK_COLUMNS.filter((c) => !columns.includes(c) && !OPTIONAL.includes(c));
  if (missing.length > 0) {
    const names =
      missing.length === 1 ? `the column ${missing[0]}` : `the columns ${missing.join(', ')}`;
    return { ok: false, message: `The header lacks ${names}; ${start}.` };
  }
  return columns;
}

/** The sentence of a CSV the parser could not read, with its line. */
function parseProblem(err: CsvError, recordLine: number): string {
  const line = typeof err.lines === 'number' ? err.lines : recordLine;
  if (err.code === 'CSV_MAX_RECORD_SIZE')
    return `The row starting at line ${recordLine} is longer than ${kilobytes(BULK_RECORD_MAX_BYTES)} by line ${line}: a quote (") left open, or a cell far too long; close the quote or shorten the cell.`;
  if (err.code === 'CSV_QUOTE_NOT_CLOSED')
    return `The row starting at line ${recordLine} opens a quote (") that is never closed; close it, or save the file again from your spreadsheet.`;
  return `The file cannot be read as CSV at line ${line} (a quote (") where none belongs); save it again from your spreadsheet as "CSV UTF-8".`;
}

/** The phones' records of a bulk listing CSV, or the one sentence that refuses the file. */
export function readCsvRecords(bytes: Buffer): CsvRecords {
  if (bytes.length > BULK_CSV_MAX_BYTES)
    return refuse(
      `The file is ${(bytes.length / 1024 / 1024).toFixed(1)} MB, and a CSV may be at most ${BULK_CSV_MAX_BYTES / 1024 / 1024} MB; split it into two files.`,
    );
  const encoding = encodingProblem(bytes);
  if (encoding) return refuse(encoding);
  const body = bytes.subarray(0, 3).equals(UTF8_BOM) ? bytes.subarray(3) : bytes;
  let lastLine = 0;
  let raw: string[][];
  try {
    raw = parse(body, {
      delimiter: delimiterOf(body),
      // Column counts are judged here: a short row is empty cells, a long one a problem of its row.
      relax_column_count: true,
      // A quote inside a cell (`6.1" screen`) is the text it is; only a quote opening a cell quotes.
      relax_quotes: true,
      max_record_size: BULK_RECORD_MAX_BYTES,
      on_record: (record: string[], context) => {
        lastLine = context.lines;
        return record;
      },
    });
  } catch (err) {
    if (err instanceof CsvError) return refuse(parseProblem(err, lastLine + 1));
    throw err;
  }
  const [header, ...rest] = raw;
  if (!header)
    return refuse('The file is empty; start from the template and fill a row for each phone.');
  const columns = columnsOf(header);
  if (!Array.isArray(columns)) return refuse(columns.message);
  const records: CsvRecord[] = [];
  for (const [i, record] of rest.entries()) {
    if (record.every((cell) => cell.trim() === '')) continue;
    const cells: CsvRecord['cells'] = {};
    for (const [j, column] of columns.entries()) cells[column] = record[j] ?? '';
    const beyond = record.slice(columns.length).filter((cell) => cell.trim() !== '').length;
    records.push({ row: i + 2, cells, beyond });
  }
  if (records.length === 0)
    return refuse('The file has no phones below its header; fill a row for each phone.');
  if (records.length > BULK_MAX_ROWS)
    return refuse(
      `The file has ${records.length} phones, and an upload takes at most ${BULK_MAX_ROWS}; split it into two files.`,
    );
  return { ok: true, records };
}
