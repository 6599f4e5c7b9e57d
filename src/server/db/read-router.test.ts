import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatLsn, LAST_LSN, parseLsn } from './read-router';

describe('WAL positions', () => {
  it("reads PostgreSQL's text of an LSN and writes it back the same", () => {
    expect(parseLsn('0/0')).toBe(0n);
    expect(parseLsn('16/B374D848')).toBe(0x16_b374_d848n);
    expect(parseLsn('16/b374d848')).toBe(0x16_b374_d848n);
    expect(formatLsn(0x16_b374_d848n)).toBe('16/B374D848');
    expect(formatLsn(LAST_LSN)).toBe('FFFFFFFF/FFFFFFFF');
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: LAST_LSN }), (position) => {
        expect(parseLsn(formatLsn(position))).toBe(position);
      }),
    );
  });

  it('takes nothing else for one', () => {
    for (const text of [
      '',
      '/',
      '0/',
      '/0',
      '1/2/3',
      '100000000/0',
      '0/100000000',
      '-1/0',
      '0x1/0',
      ' 0/0',
      '0/0 ',
      'G/0',
      'Z/0',
      '0/-1',
    ]) {
      expect(parseLsn(text), text).toBeNull();
    }
    fc.assert(
      fc.property(fc.string(), (text) => {
        const parsed = parseLsn(text);
        if (parsed !== null)
          expect(formatLsn(parsed)).toBe(text.toUpperCase().replace(/(^|\/)0+(?=[0-9A-F])/g, '$1'));
      }),
    );
  });
});
