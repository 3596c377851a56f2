import { describe, expect, it } from 'vitest';
import { anchorDayOf, nextPeriodEnd, type RecurringInterval } from './subscriptions.periods.js';

describe('nextPeriodEnd', () => {
  const cases: [string, RecurringInterval, number | undefined, string][] = [
    ['2026-01-15T12:00:00.000Z', 'month', undefined, '2026-02-15T12:00:00.000Z'],
    ['2026-01-31T00:00:00.000Z', 'month', undefined, '2026-02-28T00:00:00.000Z'],
    ['2026-02-28T00:00:00.000Z', 'month', 31, '2026-03-31T00:00:00.000Z'],
    ['2026-03-31T00:00:00.000Z', 'month', 31, '2026-04-30T00:00:00.000Z'],
    ['2026-04-30T00:00:00.000Z', 'month', 31, '2026-05-31T00:00:00.000Z'],
    ['2028-01-31T08:30:00.000Z', 'month', undefined, '2028-02-29T08:30:00.000Z'],
    ['2026-02-28T00:00:00.000Z', 'month', 30, '2026-03-30T00:00:00.000Z'],
    ['2026-12-31T23:59:59.999Z', 'month', undefined, '2027-01-31T23:59:59.999Z'],
    ['2026-11-30T00:00:00.000Z', 'month', 31, '2026-12-31T00:00:00.000Z'],
    ['2026-01-15T12:00:00.000Z', 'year', undefined, '2027-01-15T12:00:00.000Z'],
    ['2028-02-29T00:00:00.000Z', 'year', undefined, '2029-02-28T00:00:00.000Z'],
    ['2031-02-28T00:00:00.000Z', 'year', 29, '2032-02-29T00:00:00.000Z'],
  ];
  it.each(cases)('%s + 1 %s (anchor %s) → %s', (start, interval, anchor, expected) => {
    expect(nextPeriodEnd(new Date(start), interval, anchor).toISOString()).toBe(expected);
  });

  it('chains monthly periods from Jan 31 without drifting', () => {
    let at = new Date('2026-01-31T10:00:00.000Z');
    const anchor = anchorDayOf(at);
    const ends: string[] = [];
    for (let i = 0; i < 4; i++) {
      at = nextPeriodEnd(at, 'month', anchor);
      ends.push(at.toISOString().slice(0, 10));
    }
    expect(ends).toEqual(['2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31']);
  });
});
