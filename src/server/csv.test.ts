import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv';

describe('CSV cells (RFC 4180, OWASP CSV injection)', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['\rx', `"'\rx"`],
    ['＝1+1', "'＝1+1"],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    [' padded ', '" padded "'],
    ['iPhone 13', 'iPhone 13'],
  ])('writes the text %j as %j', (value, written) => {
    expect(csvCell(value)).toBe(written);
  });

  it('writes numbers as numbers, negative ones too', () => {
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(12.5)).toBe('12.5');
    expect(csvCell(Number.NaN)).toBe('');
  });

  it('ends every line with CRLF', () => {
    expect(toCsv(['a', 'b'], [['x', 1]])).toBe('a,b\r\nx,1\r\n');
  });
});
