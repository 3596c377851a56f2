import { describe, expect, it } from 'vitest';
import { csvField, rowsToCsv, toCsv } from './csv';

describe('csvField', () => {
  it.each([
    ['plain', 'plain'],
    ['', ''],
    [null, ''],
    [undefined, ''],
    [42, '42'],
    [-1250, '-1250'],
    [true, 'true'],
    ['Acme, Inc.', '"Acme, Inc."'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['=HYPERLINK("x")', '"\'=HYPERLINK(""x"")"'],
    ['+33 1 23', "'+33 1 23"],
    ['-2+3', "'-2+3"],
    ['-12.50', '-12.50'],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['a=b', 'a=b'],
  ])('%j → %j', (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });
});

describe('toCsv', () => {
  it('writes the header, a line per row and CRLF line ends', () => {
    expect(
      toCsv(
        ['Email', 'Name'],
        [
          ['ada@example.com', 'Ada'],
          ['bob@example.com', null],
        ],
      ),
    ).toBe('Email,Name\r\nada@example.com,Ada\r\nbob@example.com,\r\n');
  });

  it('writes the header alone for no rows', () => {
    expect(toCsv(['Email'], [])).toBe('Email\r\n');
  });
});

describe('rowsToCsv', () => {
  it('takes each column’s value of each row', () => {
    const rows = [{ id: 'a', total: 1250 }];
    expect(
      rowsToCsv(
        [
          { header: 'ID', value: (row) => row.id },
          { header: 'Total', value: (row) => row.total },
        ],
        rows,
      ),
    ).toBe('ID,Total\r\na,1250\r\n');
  });
});
