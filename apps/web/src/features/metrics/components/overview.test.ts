import { describe, expect, it } from 'vitest';
import { addDays, change, dayIn, formatChange, periodLabel, periodsCsv, presetRange, previousRange } from './overview';

describe('overview rules', () => {
  it.each([
    ['2026-03-01', -1, '2026-02-28'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2026-12-31', 1, '2027-01-01'],
  ])('%s moved by %i day is %s', (day, days, expected) => expect(addDays(day, days)).toBe(expected));

  it('reads the day in the time zone', () => {
    const instant = new Date('2026-01-31T23:30:00Z');
    expect(dayIn(instant, 'UTC')).toBe('2026-01-31');
    expect(dayIn(instant, 'Europe/Paris')).toBe('2026-02-01');
    expect(dayIn(instant, 'America/New_York')).toBe('2026-01-31');
  });

  it('ranges: a preset ends today; the previous range has the same length just before', () => {
    expect(presetRange(30, '2026-03-31')).toEqual({ start: '2026-03-02', end: '2026-03-31' });
    expect(presetRange(1, '2026-03-31')).toEqual({ start: '2026-03-31', end: '2026-03-31' });
    expect(previousRange({ start: '2026-03-01', end: '2026-03-31' })).toEqual({
      start: '2026-01-29',
      end: '2026-02-28',
    });
    expect(previousRange({ start: '2026-03-31', end: '2026-03-31' })).toEqual({
      start: '2026-03-30',
      end: '2026-03-30',
    });
  });

  it.each([
    [125, 100, 0.25, '+25%'],
    [90, 100, -0.1, '−10%'],
    [0, 0, 0, '0%'],
    [5, 0, null, 'new'],
    [1, 3, -2 / 3, '−66.7%'],
    [-5, -10, 0.5, '+50%'],
  ])('%d after %d is a change of %s (%s)', (current, previous, expected, text) => {
    if (expected === null) expect(change(current, previous)).toBeNull();
    else expect(change(current, previous)).toBeCloseTo(expected);
    expect(formatChange(change(current, previous))).toBe(text);
  });

  it.each([
    ['hour', '2026-03-29T01:00:00Z', 'Europe/Paris', 'Mar 29, 03:00'],
    ['day', '2026-01-31T23:00:00Z', 'Europe/Paris', 'Feb 1'],
    ['week', '2026-01-05T05:00:00Z', 'America/New_York', 'Week of Jan 5'],
    ['month', '2026-01-31T23:00:00Z', 'Europe/Paris', 'Feb 2026'],
    ['year', '2025-12-31T23:00:00Z', 'Europe/Paris', '2026'],
  ] as const)('labels a %s period', (interval, timestamp, zone, label) =>
    expect(periodLabel(timestamp, interval, zone)).toBe(label),
  );

  it('exports the periods as CSV, quoting what needs it', () => {
    const csv = periodsCsv(
      [
        { timestamp: '2026-01-01T00:00:00.000Z', orders: 5, revenue: 17500, note: 'a, "b"' },
        { timestamp: '2026-02-01T00:00:00.000Z', orders: 0, revenue: 0, note: '' },
      ],
      ['orders', 'revenue', 'note'],
    );
    expect(csv).toBe(
      'timestamp,orders,revenue,note\n2026-01-01T00:00:00.000Z,5,17500,"a, ""b"""\n2026-02-01T00:00:00.000Z,0,0,\n',
    );
  });
});
