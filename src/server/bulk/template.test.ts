import { describe, expect, it } from 'vitest';
import { BULK_COLUMNS } from '../../shared/bulk';
import { imeiProblem } from '../../shared/imei';
import { readBulkCsv } from './csv-rows';
import { bulkTemplateCsv } from './template';

describe('the bulk listing template', () => {
  it("starts with a UTF-8 byte order mark and the form's labels", () => {
    const template = bulkTemplateCsv();
    expect(template.startsWith(`\uFEFF${BULK_COLUMNS.join(',')}\r\n`)).toBe(true);
  });

  it('reads back as one phone with no problem at all, its choices as the form shows them', () => {
    const read = readBulkCsv(Buffer.from(bulkTemplateCsv(), 'utf8'));
    expect(read.ok && read.rows.length).toBe(1);
    const row = read.ok ? read.rows[0] : undefined;
    expect(row?.problems).toEqual([]);
    expect(row?.photoNames).toEqual(['front.jpg', 'back.jpg']);
    expect(row?.body).toMatchObject({
      categoryId: '01',
      specificatons: { ram: '8 GB', storage: '128 GB' },
      condition: 'Good',
      sellerNumber: '(512) 555-0100',
    });
    expect(imeiProblem(String(row?.body.imei))).toBeNull();
    const lines = bulkTemplateCsv().split('\r\n');
    expect(lines[1]).toMatch(/^Apple,[^,]+,8 GB,128 GB,/);
  });
});
