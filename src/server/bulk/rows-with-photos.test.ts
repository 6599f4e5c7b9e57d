import { describe, expect, it } from 'vitest';
import { BULK_COLUMNS, type BulkColumn } from '../../shared/bulk';
import { type BulkCsvRow, readBulkCsv } from './csv-rows';
import { withPhotos } from './rows-with-photos';
import type { ZipPhoto } from './zip-photos';

const PHONE: Record<BulkColumn, string> = {
  Category: 'Xiaomi',
  'Model name': 'Redmi Note 12',
  RAM: '6 GB',
  Storage: '128 GB',
  Color: 'Onyx Gray',
  'Battery (mAh)': '5,000 mAh',
  'Battery health (%)': '',
  IMEI: '356938035643809',
  'Resale price ($)': '$1,200.50',
  'Original price ($)': '1300',
  'Time used (months)': '1.5 years',
  Condition: 'flawless',
  'Phone number': '+1 512 555 0100',
  Location: 'Austin',
  Description: 'Like new',
  Photos: 'front.jpg|back.jpg',
};
const IMEIS = ['356938035643809', '490154203237518', '352099001761481'];
const rowsOf = (...rows: Partial<Record<BulkColumn, string>>[]): BulkCsvRow[] => {
  const lines = [
    BULK_COLUMNS,
    ...rows.map((r, i) => BULK_COLUMNS.map((c) => r[c] ?? (c === 'IMEI' ? IMEIS[i] : PHONE[c]))),
  ];
  const read = readBulkCsv(
    Buffer.from(lines.map((l) => `${l.map((c) => `"${c}"`).join(',')}\r\n`).join('')),
  );
  if (!read.ok) throw new Error(read.message);
  return read.rows;
};
const stored = (url: string): ZipPhoto => ({ ok: true, url });
const PHOTOS = new Map<string, ZipPhoto>([
  ['front.jpg', stored('/images/front.webp')],
  ['back.jpg', stored('/images/back.webp')],
  ['side.jpg', stored('/images/side.webp')],
  ['copy.jpg', stored('/images/front.webp')],
  [
    'notes.jpg',
    { ok: false, message: 'Photos: notes.jpg: the file is not a JPEG, PNG or WebP image' },
  ],
]);

describe('bulk rows with their photos', () => {
  it("reads a row again with its photos' URLs, the cover first, as the form's schema outputs it", () => {
    const [ready] = withPhotos(rowsOf({}), PHOTOS);
    expect(ready).toEqual({
      row: 2,
      model: 'Redmi Note 12',
      problems: [],
      input: expect.objectContaining({
        categoryId: '05',
        image: '/images/front.webp',
        photos: ['/images/front.webp', '/images/back.webp'],
        resellPrice: 1200.5,
        timeUsed: 18,
        condition: 'Flawless',
        specificatons: { ram: '6 GB', storage: '128 GB', color: 'Onyx Gray', battery: 5000 },
        imei: '356938035643809',
        batteryHealth: null,
      }),
    });
  });

  it('fails every row naming a photo that failed, in any case, and no other', () => {
    const ready = withPhotos(
      rowsOf(
        { Photos: 'notes.jpg|front.jpg' },
        { Photos: 'side.jpg|NOTES.JPG' },
        { Photos: 'side.jpg' },
      ),
      PHOTOS,
    );
    const message = 'Photos: notes.jpg: the file is not a JPEG, PNG or WebP image';
    expect(ready.map((r) => r.problems)).toEqual([
      [{ column: 'Photos', message }],
      [{ column: 'Photos', message }],
      [],
    ]);
    expect(ready.map((r) => r.input !== undefined)).toEqual([false, false, true]);
  });

  it('keeps the problems of its cells, with its photos’, in the columns’ order, and lists nothing', () => {
    const photos = new Map(PHOTOS);
    photos.delete('back.jpg');
    const [ready] = withPhotos(rowsOf({ Photos: 'front.jpg|back.jpg', Color: '' }), photos);
    expect(ready).toEqual({
      row: 2,
      model: 'Redmi Note 12',
      problems: [
        { column: 'Color', message: 'Color: this field is required' },
        { column: 'Photos', message: 'Photos: back.jpg: is not in the ZIP' },
      ],
    });
  });

  it("refuses by the form's own rules what only the photos' URLs reveal: one photo twice", () => {
    const [ready] = withPhotos(rowsOf({ Photos: 'front.jpg|copy.jpg' }), PHOTOS);
    expect(ready).toEqual({
      row: 2,
      model: 'Redmi Note 12',
      problems: [{ column: 'Photos', message: 'Photos: each photo once' }],
    });
  });
});
