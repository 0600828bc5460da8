import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from '../../../src/domain/csv.ts';

describe('csv', () => {
  it('quotes fields with commas, quotes and line breaks, doubling quotes (RFC 4180)', () => {
    expect(csvField('Acme, Inc.')).toBe('"Acme, Inc."');
    expect(csvField('the "best" one')).toBe('"the ""best"" one"');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('plain')).toBe('plain');
  });

  it('defuses cells a spreadsheet would run as a formula', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField('+1 555 0100')).toBe("'+1 555 0100");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tcmd')).toBe("'\tcmd");
  });

  it('writes numbers as numbers, and nothing as an empty field', () => {
    expect(csvField(-5)).toBe('-5');
    expect(csvField(1200)).toBe('1200');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(true)).toBe('yes');
  });

  it('writes a header row and one CRLF-ended line per row', () => {
    const csv = toCsv(
      ['name', 'employees'],
      [
        ['Acme', 10],
        ['Globex, Ltd', null],
      ],
    );
    expect(csv).toBe('name,employees\r\nAcme,10\r\n"Globex, Ltd",\r\n');
  });
});
