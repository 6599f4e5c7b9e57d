/**
 * CSV as RFC 4180 writes it (CRLF line ends; a field with a comma, a quote or a line break in
 * quotes, its quotes doubled), made safe to open in a spreadsheet (OWASP's CSV injection
 * guidance): a text cell that starts with = + - @, a tab or a carriage return (or their
 * full-width forms) is prefixed with an apostrophe, so no formula reaches a spreadsheet.
 * Numbers are written as numbers. Decision 056 says why this is ours and not a library's.
 */
export type CsvCell = string | number;

const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** One cell: a number as it is, a text neutralised and quoted when it must be. */
export function csvCell(value: CsvCell): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A header and rows as one CSV text, each line ended by CRLF. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows].map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}
