import { describe, expect, it } from 'vitest';
import { BULK_COLUMNS, BULK_CSV_MAX_BYTES, BULK_MAX_ROWS } from '../../shared/bulk';
import { readCsvRecords } from './csv-records';

/** A CSV line as a spreadsheet saves it: quoted where it must be, nothing neutralised. */
const line = (cells: readonly string[], delimiter = ',') =>
  `${cells.map((c) => (/[",;\r\n]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c)).join(delimiter)}\r\n`;
const PHONE = [
  'Apple',
  'iPhone 12',
  '4 GB',
  '64 GB',
  'Blue',
  '2815',
  '90',
  '356938035643809',
  '400',
  '799',
  '30',
  'Good',
  '+1 512 555 0100',
  'Austin',
  'Works well',
  'a.jpg',
];
const csv = (rows: readonly (readonly string[])[], header: readonly string[] = BULK_COLUMNS) =>
  Buffer.from([header, ...rows].map((r) => line(r)).join(''));
const refusal = (bytes: Buffer) => {
  const read = readCsvRecords(bytes);
  if (read.ok) throw new Error('the file was read');
  return read.message;
};
/** One sentence: a capital, one full stop at its end, no line break. */
const oneSentence = /^[A-Z][^\n]*\.$/;

describe('a bulk CSV as a file', () => {
  it('reads each phone by column, numbering rows as a spreadsheet does', () => {
    const read = readCsvRecords(csv([PHONE, PHONE.map(() => ''), PHONE]));
    expect(read).toMatchObject({
      ok: true,
      records: [
        { row: 2, cells: { Category: 'Apple', 'Model name': 'iPhone 12', Photos: 'a.jpg' } },
        { row: 4 },
      ],
    });
  });

  it('counts a record with a line break in a quoted cell as one row', () => {
    const bytes = csv([[...PHONE.slice(0, 14), 'Line one\nline two', 'a.jpg'], PHONE]);
    const read = readCsvRecords(bytes);
    expect(read.ok && read.records.map((r) => [r.row, r.cells.Description])).toEqual([
      [2, 'Line one\nline two'],
      [3, 'Works well'],
    ]);
  });

  it('accepts a UTF-8 byte order mark and text beyond ASCII', () => {
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      csv([[...PHONE.slice(0, 13), 'Café São Paulo', ...PHONE.slice(14)]]),
    ]);
    const read = readCsvRecords(bytes);
    expect(read.ok && read.records[0]?.cells.Location).toBe('Café São Paulo');
  });

  it('reads cells separated by semicolons when the header is', () => {
    const text = [BULK_COLUMNS, PHONE].map((r) => line(r, ';')).join('');
    const read = readCsvRecords(Buffer.from(text));
    expect(read.ok && read.records[0]?.cells['Model name']).toBe('iPhone 12');
  });

  it('matches the header in any case and spacing, its unit optional, Battery health left out', () => {
    const header = BULK_COLUMNS.filter((c) => c !== 'Battery health (%)').map((c) =>
      c === 'Battery (mAh)'
        ? 'battery'
        : c === 'Resale price ($)'
          ? 'RESALE  PRICE'
          : c.toUpperCase(),
    );
    const phone = PHONE.filter((_, i) => i !== 6);
    const read = readCsvRecords(csv([phone], header));
    expect(read.ok && read.records[0]?.cells).toMatchObject({
      'Battery (mAh)': '2815',
      'Resale price ($)': '400',
    });
    expect(read.ok && 'Battery health (%)' in (read.records[0]?.cells ?? {})).toBe(false);
  });

  it('counts filled cells beyond the header, and ignores empty ones', () => {
    const read = readCsvRecords(
      csv([
        [...PHONE, 'extra', '', 'more'],
        [...PHONE, '', ''],
      ]),
    );
    expect(read.ok && read.records.map((r) => r.beyond)).toEqual([2, 0]);
  });

  it('refuses a file over the size cap without reading it', () => {
    const message = refusal(Buffer.alloc(BULK_CSV_MAX_BYTES + 1, 'a'));
    expect(message).toMatch(/at most 2 MB/);
    expect(message).toMatch(oneSentence);
  });

  it('refuses a 10 MB single line by its size', () => {
    const bytes = Buffer.concat([csv([]), Buffer.alloc(10 * 1024 * 1024, 'x')]);
    expect(refusal(bytes)).toMatch(/10\.0 MB.*at most 2 MB/);
  });

  it('refuses a record over 32 KB at the line where it passes', () => {
    const long = [...PHONE.slice(0, 14), 'x'.repeat(40_000), 'a.jpg'];
    const message = refusal(csv([PHONE, long]));
    expect(message).toMatch(/row starting at line 3 is longer than 32 KB by line 3/);
    expect(message).toMatch(oneSentence);
  });

  it('refuses a quote never closed at the row that opens it, before gathering the rest', () => {
    const open = `${line(BULK_COLUMNS)}${line(PHONE)}Apple,"iPhone 12,4 GB\r\n${'more text\r\n'.repeat(5000)}`;
    const message = refusal(Buffer.from(open));
    expect(message).toMatch(/row starting at line 3 is longer than 32 KB.*quote/);
    const short = `${line(BULK_COLUMNS)}${line(PHONE)}Apple,"iPhone 12,4 GB\r\nrest\r\n`;
    expect(refusal(Buffer.from(short))).toMatch(
      /row starting at line 3 opens a quote.*never closed/,
    );
    expect(refusal(Buffer.from(short))).toMatch(oneSentence);
  });

  it('refuses UTF-16, with or without its byte order mark', () => {
    const text = [BULK_COLUMNS, PHONE].map((r) => line(r)).join('');
    const withBom = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect(refusal(withBom)).toMatch(/UTF-16 \(line 1\).*"CSV UTF-8"/);
    expect(refusal(Buffer.from(text, 'utf16le'))).toMatch(/UTF-16.*line 1.*"CSV UTF-8"/);
    expect(refusal(withBom)).toMatch(oneSentence);
  });

  it('refuses Windows-1252 ("ANSI"), naming its line, and guesses nothing', () => {
    const text = [BULK_COLUMNS, PHONE, [...PHONE.slice(0, 13), 'Café', ...PHONE.slice(14)]]
      .map((r) => line(r))
      .join('');
    const ansi = Buffer.from(text, 'latin1');
    const message = refusal(ansi);
    expect(message).toBe(
      'The file is not UTF-8: line 3 looks like Windows-1252 ("ANSI"); save it from your spreadsheet as "CSV UTF-8" and upload it again.',
    );
  });

  it('refuses an unknown column rather than ignoring it', () => {
    const header = BULK_COLUMNS.map((c) => (c === 'Color' ? 'Colour' : c));
    const message = refusal(csv([PHONE], header));
    expect(message).toMatch(/^The header's column "Colour" is none of the template's/);
    expect(message).toMatch(oneSentence);
  });

  it('refuses a column given twice', () => {
    expect(refusal(csv([[...PHONE, '4 GB']], [...BULK_COLUMNS, 'ram']))).toMatch(
      /names the column RAM twice/,
    );
  });

  it('refuses missing columns, naming them', () => {
    const header = BULK_COLUMNS.filter((c) => c !== 'IMEI' && c !== 'Color');
    const message = refusal(csv([PHONE.slice(0, 14)], header));
    expect(message).toMatch(/lacks the columns Color, IMEI/);
    expect(message).toMatch(oneSentence);
  });

  it('refuses a file with no phones, and blank rows are no phones', () => {
    expect(refusal(csv([]))).toMatch(/no phones/);
    expect(refusal(csv([PHONE.map(() => ''), PHONE.map(() => ' ')]))).toMatch(/no phones/);
    expect(refusal(Buffer.from(''))).toMatch(/empty/);
  });

  it(`refuses more than ${BULK_MAX_ROWS} phones`, () => {
    const short = PHONE.map((c, i) => (i === 14 ? 'ok' : c));
    expect(readCsvRecords(csv(Array(BULK_MAX_ROWS).fill(short))).ok).toBe(true);
    const message = refusal(csv(Array(BULK_MAX_ROWS + 1).fill(short)));
    expect(message).toMatch(/501 phones.*at most 500/);
    expect(message).toMatch(oneSentence);
  });
});
