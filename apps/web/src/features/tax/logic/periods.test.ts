import { describe, expect, it } from 'vitest';
import { jurisdictionLabel, monthPeriod, quarterPeriod } from './periods';

describe('report periods', () => {
  const now = new Date('2026-02-16T12:00:00Z');

  it.each([
    [0, { start_date: '2026-02-01', end_date: '2026-02-28' }],
    [-1, { start_date: '2026-01-01', end_date: '2026-01-31' }],
    [-2, { start_date: '2025-12-01', end_date: '2025-12-31' }],
  ])('month %s', (offset, period) => expect(monthPeriod(now, offset)).toEqual(period));

  it.each([
    [0, { start_date: '2026-01-01', end_date: '2026-03-31' }],
    [-1, { start_date: '2025-10-01', end_date: '2025-12-31' }],
  ])('quarter %s', (offset, period) => expect(quarterPeriod(now, offset)).toEqual(period));

  it('names a jurisdiction', () => {
    expect(jurisdictionLabel('US', 'US-CA')).toBe('US · CA');
    expect(jurisdictionLabel('FR', null)).toBe('FR');
  });
});
