import { describe, expect, it } from 'vitest';
import { acceptsCsv, CSV_BATCH, csvCell, csvLine, csvStream, isoformat, majorUnits, pythonJson } from './csv.js';

describe('csvCell', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\r', '"cr\r"'],
    [null, ''],
    [undefined, ''],
    [12, '12'],
    [false, 'false'],
  ])('%j → %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('ends a line with CRLF', () => {
    expect(csvLine(['a', null, 'b,c'])).toBe('a,,"b,c"\r\n');
  });
});

describe('majorUnits', () => {
  it.each([
    [1234, '12.34'],
    [1250, '12.5'],
    [1200, '12.0'],
    [5, '0.05'],
    [50, '0.5'],
    [0, '0.0'],
    [-1999, '-19.99'],
  ])('%i → %s', (amount, text) => {
    expect(majorUnits(amount)).toBe(text);
  });
});

describe('isoformat', () => {
  it('prints seconds, microseconds when any, and +00:00', () => {
    expect(isoformat(new Date('2026-01-02T03:04:05Z'))).toBe('2026-01-02T03:04:05+00:00');
    expect(isoformat(new Date('2026-01-02T03:04:05.120Z'))).toBe('2026-01-02T03:04:05.120000+00:00');
    expect(isoformat(null)).toBeNull();
  });
});

describe('acceptsCsv', () => {
  it.each([
    ['text/csv', true],
    ['application/json, text/csv;q=0.5', true],
    ['application/json', false],
    [undefined, false],
    ['*/*', false],
  ])('%s → %s', (accept, expected) => {
    expect(acceptsCsv(accept)).toBe(expected);
  });
});

describe('csvStream', () => {
  it('writes the header, then reads batch after batch from the last row until a short one', async () => {
    const items = Array.from({ length: CSV_BATCH + 3 }, (_, i) => i);
    const asked: (number | undefined)[] = [];
    const stream = csvStream<number>(
      ['N', 'Double'],
      async (after) => {
        asked.push(after);
        const start = after === undefined ? 0 : after + 1;
        return items.slice(start, start + CSV_BATCH);
      },
      (n) => [n, n * 2],
    );
    let text = '';
    for await (const chunk of stream) text += String(chunk);
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('N,Double');
    expect(lines.slice(1, -1)).toEqual(items.map((n) => `${n},${n * 2}`));
    expect(asked).toEqual([undefined, CSV_BATCH - 1]);
  });
});

describe('pythonJson', () => {
  it('writes as json.dumps does', () => {
    expect(pythonJson({ plan: 'pro', seats: 3, beta: true, note: null })).toBe(
      '{"plan": "pro", "seats": 3, "beta": true, "note": null}',
    );
    expect(pythonJson({ city: 'Zürich', tags: ['a', 'b'] })).toBe('{"city": "Z\\u00fcrich", "tags": ["a", "b"]}');
    expect(pythonJson({})).toBe('{}');
  });
});
