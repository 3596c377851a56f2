import { describe, expect, it } from 'vitest';
import { bucketLabel, defaultRange, rangeTimestamps } from './quantities';

const TODAY = new Date('2026-03-15T10:30:00Z');

describe('defaultRange', () => {
  it.each([
    ['hour', '2026-03-14'],
    ['day', '2026-02-14'],
    ['month', '2025-03-16'],
  ] as const)('%s ends today and starts on %s', (interval, start) => {
    expect(defaultRange(interval, TODAY)).toEqual({ start, end: '2026-03-15' });
  });

  it('never starts before 2023-01-01', () => {
    expect(defaultRange('year', TODAY).start).toBe('2023-01-01');
  });

  it('always fits the interval’s limit', () => {
    for (const interval of ['hour', 'day', 'week', 'month', 'year'] as const)
      expect(rangeTimestamps(defaultRange(interval, TODAY), interval)).not.toHaveProperty('problem');
  });
});

describe('rangeTimestamps', () => {
  it('covers whole UTC days, the last one included', () => {
    expect(rangeTimestamps({ start: '2026-03-01', end: '2026-03-31' }, 'day')).toEqual({
      start_timestamp: '2026-03-01T00:00:00.000Z',
      end_timestamp: '2026-03-31T23:59:59.999Z',
    });
  });

  it.each([
    [{ start: '', end: '2026-03-01' }, 'day', 'Choose a start and an end day.'],
    [{ start: '2022-12-31', end: '2023-01-02' }, 'day', 'The start day must be 2023-01-01 or later.'],
    [{ start: '2026-03-02', end: '2026-03-01' }, 'day', 'The end day must not be before the start day.'],
    [{ start: '2026-03-01', end: '2026-03-09' }, 'hour', 'An hourly chart covers at most 8 days'],
    [{ start: '2025-01-01', end: '2026-03-01' }, 'day', 'A daily chart covers at most 367 days'],
  ] as const)('refuses %j by %s', (range, interval, problem) => {
    const result = rangeTimestamps(range, interval);
    expect('problem' in result && result.problem).toContain(problem);
  });

  it('accepts the widest range of an interval (8 calendar days of hours: 7 whole days from start to end)', () => {
    expect(rangeTimestamps({ start: '2026-03-01', end: '2026-03-08' }, 'hour')).not.toHaveProperty('problem');
  });
});

describe('bucketLabel', () => {
  it('reads a bucket at its interval’s precision, in UTC', () => {
    expect(bucketLabel('2026-03-05T00:00:00Z', 'year')).toBe('2026');
    expect(bucketLabel('2026-03-05T00:00:00Z', 'month')).toMatch(/Mar/);
    expect(bucketLabel('2026-03-05T23:00:00Z', 'day')).toMatch(/5/);
  });
});
