import { describe, expect, it } from 'vitest';
import { BULK_COLUMNS, type BulkColumn } from '../../shared/bulk';
import { type BulkCsvRow, readBulkCsv } from './csv-rows';

const line = (cells: readonly string[]) =>
  `${cells.map((c) => (/[",\r\n]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c)).join(',')}\r\n`;
const PHONE: Record<BulkColumn, string> = {
  Category: 'Samsung',
  'Model name': 'Galaxy S21',
  RAM: '8 GB',
  Storage: '128 GB',
  Color: 'Phantom Gray',
  'Battery (mAh)': '4000',
  'Battery health (%)': '91',
  IMEI: '356938035643809',
  'Resale price ($)': '420',
  'Original price ($)': '799',
  'Time used (months)': '20',
  Condition: 'Good',
  'Phone number': '+1 512 555 0100',
  Location: 'Austin',
  Description: 'Works well',
  Photos: 'front.jpg|back.jpg',
};
const csv = (...rows: Partial<Record<BulkColumn, string>>[]) =>
  Buffer.from(
    [BULK_COLUMNS, ...rows.map((r) => BULK_COLUMNS.map((c) => r[c] ?? PHONE[c]))]
      .map(line)
      .join(''),
  );
const rowsOf = (bytes: Buffer): BulkCsvRow[] => {
  const read = readBulkCsv(bytes);
  if (!read.ok) throw new Error(read.message);
  return read.rows;
};
const problemsOf = (cells: Partial<Record<BulkColumn, string>>) => rowsOf(csv(cells))[0]?.problems;

describe('a bulk CSV row by row', () => {
  it('reads a phone as the body Add A Product sends, its photos apart', () => {
    const [row] = rowsOf(csv({ Photos: ' front.jpg | | back.jpg ', 'Model name': ' Galaxy S21 ' }));
    expect(row).toEqual({
      row: 2,
      model: 'Galaxy S21',
      problems: [],
      photoNames: ['front.jpg', 'back.jpg'],
      body: {
        categoryId: '02',
        modelName: ' Galaxy S21 ',
        specificatons: { ram: '8 GB', storage: '128 GB', color: 'Phantom Gray', battery: '4000' },
        batteryHealth: '91',
        imei: '356938035643809',
        resellPrice: '420',
        originalPrice: '799',
        timeUsed: '20',
        condition: 'Good',
        sellerNumber: '+1 512 555 0100',
        location: 'Austin',
        description: 'Works well',
      },
    });
  });

  it('reads a Battery health left blank, or its column left out, as none, as the form sends it', () => {
    expect(rowsOf(csv({ 'Battery health (%)': '' }))[0]).toMatchObject({
      problems: [],
      body: { batteryHealth: null },
    });
    const columns = BULK_COLUMNS.filter((c) => c !== 'Battery health (%)');
    const bytes = Buffer.from([columns, columns.map((c) => PHONE[c])].map(line).join(''));
    expect(rowsOf(bytes)[0]).toMatchObject({ problems: [], body: { batteryHealth: null } });
  });

  it('reads choices as the form shows them, in any case and spacing', () => {
    const [row] = rowsOf(
      csv({ Category: 'apple', RAM: '8gb', Storage: '1 TB', Condition: 'brand  new' }),
    );
    expect(row?.problems).toEqual([]);
    expect(row?.body).toMatchObject({
      categoryId: '01',
      specificatons: { ram: '8 GB', storage: '1 GTB' },
      condition: 'Brand New',
    });
    expect(rowsOf(csv({ Category: '01' }))[0]?.body.categoryId).toBe('01');
    expect(rowsOf(csv({ Category: '5' }))[0]?.body.categoryId).toBe('05');
  });

  it('names a choice not offered by its column, in the words the form shows', () => {
    expect(problemsOf({ Category: 'Nokia', Storage: '2 TB' })).toEqual([
      {
        column: 'Category',
        message: 'Category: choose one of Apple, Samsung, Infinix, Oppo, Xiaomi',
      },
      {
        column: 'Storage',
        message: 'Storage: choose one of 32 GB, 64 GB, 128 GB, 256 GB, 1 TB',
      },
    ]);
  });

  it("words each cell's problem as the form's server answer, keyed by its column, in the columns' order", () => {
    expect(
      problemsOf({
        'Resale price ($)': 'cheap',
        'Battery health (%)': '20',
        Location: '',
        IMEI: '356938035643808',
      }),
    ).toEqual([
      {
        column: 'Battery health (%)',
        message: 'Battery health (%): a whole number from 50 to 100, or leave it empty',
      },
      { column: 'IMEI', message: 'IMEI: a digit is mistyped (its last digit does not check out)' },
      {
        column: 'Resale price ($)',
        message: 'Resale price ($): write the price in dollars, such as 1200, $1,200 or 1,200.50',
      },
      { column: 'Location', message: 'Location: this field is required' },
    ]);
  });

  it('says an IMEI a spreadsheet turned into a number lost its digits', () => {
    expect(problemsOf({ IMEI: '3.56938E+14' })).toEqual([
      {
        column: 'IMEI',
        message:
          'IMEI: the spreadsheet wrote it as a number (3.56938E+14) and lost digits; format the column as text and type the 15 digits again',
      },
    ]);
  });

  it.each([
    ['Model name', '=1+1', '='],
    ['Description', '@SUM(A1)', '@'],
    ['Location', '\uFF1DHYPERLINK("http://x")', '\uFF1D'],
    ['Color', ' +HYPERLINK("http://evil","x")', '+'],
    ['Phone number', '-cmd(1)', '-'],
    ['Photos', '=IMPORTXML("http://x")', '='],
  ] as const)('refuses a formula in %s, per cell', (column, cell, start) => {
    expect(problemsOf({ [column]: cell })).toEqual([
      {
        column,
        message: `${column}: starts like a spreadsheet formula (${start}); write the text itself, not a formula`,
      },
    ]);
  });

  it('keeps a leading + or - that is no function call', () => {
    const [row] = rowsOf(
      csv({ 'Phone number': '+1 512 555 0100', Description: '- no scratches (one dent)' }),
    );
    expect(row?.problems).toEqual([]);
    expect(row?.body).toMatchObject({
      sellerNumber: '+1 512 555 0100',
      description: '- no scratches (one dent)',
    });
  });

  it('takes off the apostrophe our own CSV writer put before a formula, and judges what was under it', () => {
    const [kept] = rowsOf(csv({ 'Phone number': "'+1 512 555 0100", Description: "'- mint" }));
    expect(kept?.body).toMatchObject({ sellerNumber: '+1 512 555 0100', description: '- mint' });
    expect(problemsOf({ 'Model name': "'=HYPERLINK(1)" })).toEqual([
      expect.objectContaining({
        column: 'Model name',
        message: expect.stringContaining('formula (=)'),
      }),
    ]);
    expect(rowsOf(csv({ Description: "'tis mint" }))[0]?.body.description).toBe("'tis mint");
  });

  it('fails both rows of one IMEI, each naming the other', () => {
    const rows = rowsOf(csv({}, { IMEI: '35-693803-564380-9' }, { IMEI: '490154203237518' }));
    expect(rows.map((r) => r.problems)).toEqual([
      [{ column: 'IMEI', message: 'IMEI: the same IMEI as row 3; list each phone once' }],
      [{ column: 'IMEI', message: 'IMEI: the same IMEI as row 2; list each phone once' }],
      [],
    ]);
  });

  it('needs at least one photo, at most six, each once', () => {
    expect(problemsOf({ Photos: ' | ' })).toEqual([
      {
        column: 'Photos',
        message:
          "Photos: name the phone's photos in the ZIP, the cover first, such as front.jpg|back.jpg",
      },
    ]);
    expect(problemsOf({ Photos: '1.jpg|2.jpg|3.jpg|4.jpg|5.jpg|6.jpg|7.jpg' })).toEqual([
      { column: 'Photos', message: 'Photos: at most 6 photos' },
    ]);
    expect(problemsOf({ Photos: 'a.jpg|A.JPG' })).toEqual([
      { column: 'Photos', message: 'Photos: A.JPG is named twice; name each photo once' },
    ]);
  });

  it('makes cells beyond the header a problem of the row', () => {
    const other = { ...PHONE, IMEI: '490154203237518' };
    const bytes = Buffer.concat([
      csv({}),
      Buffer.from(line([...BULK_COLUMNS.map((c) => other[c]), 'x'])),
    ]);
    const rows = rowsOf(bytes);
    expect(rows[0]?.problems).toEqual([]);
    expect(rows[1]?.problems).toEqual([
      {
        column: 'Row',
        message:
          "This row has cells beyond the header's last column (1 filled); move them into their columns or delete them",
      },
    ]);
  });

  it('answers the refusal of the file as it is', () => {
    expect(readBulkCsv(Buffer.from(line([...BULK_COLUMNS, 'Colour'])))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/"Colour"/),
    });
  });
});
