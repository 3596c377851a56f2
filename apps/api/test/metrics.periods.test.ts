import { describe, expect, it } from 'vitest';
import { daysBetween, isTimeZone, periodsOf, zonedInstant } from '../src/modules/metrics/metrics.periods.js';
import { checkRange, periodValues, totalsOf } from '../src/modules/metrics/metrics.service.js';

const starts = (...args: Parameters<typeof periodsOf>) => periodsOf(...args).map((p) => p.start.toISOString());
const ends = (...args: Parameters<typeof periodsOf>) => periodsOf(...args).map((p) => p.end.toISOString());

describe('periodsOf', () => {
  it.each([
    [
      'day UTC',
      ['2026-01-30', '2026-02-01', 'day', 'UTC'],
      ['2026-01-30T00:00:00.000Z', '2026-01-31T00:00:00.000Z', '2026-02-01T00:00:00.000Z'],
    ],
    [
      'month ends',
      ['2026-01-31', '2026-03-01', 'month', 'UTC'],
      ['2026-01-31T00:00:00.000Z', '2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
    ],
    [
      'leap February',
      ['2028-02-28', '2028-03-01', 'day', 'UTC'],
      ['2028-02-28T00:00:00.000Z', '2028-02-29T00:00:00.000Z', '2028-03-01T00:00:00.000Z'],
    ],
    [
      'week from a Wednesday',
      ['2026-01-07', '2026-01-20', 'week', 'UTC'],
      ['2026-01-07T00:00:00.000Z', '2026-01-12T00:00:00.000Z', '2026-01-19T00:00:00.000Z'],
    ],
    ['year', ['2025-06-01', '2026-02-01', 'year', 'UTC'], ['2025-06-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z']],
    [
      'Paris winter midnight',
      ['2026-01-01', '2026-01-02', 'day', 'Europe/Paris'],
      ['2025-12-31T23:00:00.000Z', '2026-01-01T23:00:00.000Z'],
    ],
    // 29 March 2026: Paris goes from +01:00 to +02:00.
    [
      'Paris spring DST',
      ['2026-03-28', '2026-03-30', 'day', 'Europe/Paris'],
      ['2026-03-27T23:00:00.000Z', '2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z'],
    ],
    // 1 November 2026: New York goes from -04:00 to -05:00.
    [
      'New York autumn DST',
      ['2026-10-31', '2026-11-02', 'day', 'America/New_York'],
      ['2026-10-31T04:00:00.000Z', '2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z'],
    ],
    [
      'New York months across DST',
      ['2026-02-01', '2026-04-30', 'month', 'America/New_York'],
      ['2026-02-01T05:00:00.000Z', '2026-03-01T05:00:00.000Z', '2026-04-01T04:00:00.000Z'],
    ],
  ] as const)('%s', (_name, [start, end, interval, zone], expected) => {
    expect(starts(start, end, interval, zone)).toEqual(expected);
  });

  it('each period ends where the next starts, and the last at the end date’s next local midnight', () => {
    expect(ends('2026-03-28', '2026-03-30', 'day', 'Europe/Paris')).toEqual([
      '2026-03-28T23:00:00.000Z',
      '2026-03-29T22:00:00.000Z',
      '2026-03-30T22:00:00.000Z',
    ]);
    expect(ends('2026-01-31', '2026-02-10', 'month', 'UTC')).toEqual([
      '2026-02-01T00:00:00.000Z',
      '2026-02-11T00:00:00.000Z',
    ]);
  });

  it('counts hours in elapsed time: a spring DST day has 23, an autumn one 25', () => {
    expect(periodsOf('2026-03-29', '2026-03-29', 'hour', 'Europe/Paris')).toHaveLength(23);
    expect(periodsOf('2026-10-25', '2026-10-25', 'hour', 'Europe/Paris')).toHaveLength(25);
    expect(periodsOf('2026-11-01', '2026-11-01', 'hour', 'America/New_York')).toHaveLength(25);
    expect(periodsOf('2026-01-01', '2026-01-01', 'hour', 'UTC')).toHaveLength(24);
  });

  it('zonedInstant and the helpers', () => {
    expect(zonedInstant('Europe/Paris', Date.parse('2026-07-01T00:00:00Z')).toISOString()).toBe(
      '2026-06-30T22:00:00.000Z',
    );
    expect(daysBetween('2026-01-01', '2026-12-31')).toBe(364);
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('+05:00')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(isTimeZone('America/Argentina/Buenos_Aires')).toBe(true);
    expect(isTimeZone('Etc/GMT+5')).toBe(true);
  });
});

describe('checkRange', () => {
  it.each([
    ['2023-01-01', '2023-01-08', 'hour', null],
    ['2023-01-01', '2023-01-09', 'hour', 'interval'],
    ['2024-01-01', '2024-12-31', 'day', null],
    ['2024-01-01', '2025-01-02', 'day', 'interval'],
    ['2022-12-31', '2023-01-01', 'day', 'start_date'],
    ['2024-01-02', '2024-01-01', 'day', 'end_date'],
    ['2023-01-01', '2032-12-28', 'year', null],
  ] as const)('%s..%s by %s → %s', (start_date, end_date, interval, field) => {
    const run = () => checkRange({ start_date, end_date, interval });
    if (field === null) expect(run).not.toThrow();
    else expect(run).toThrow();
  });
});

describe('periodValues and totalsOf', () => {
  const row = (over: Record<string, string> = {}) => ({
    orders: '0',
    revenue: '0',
    net_revenue: '0',
    cumulative_revenue: '0',
    average_order_value: '0',
    ordering_customers: '0',
    one_time_products: '0',
    one_time_products_revenue: '0',
    new_subscriptions: '0',
    new_subscriptions_revenue: '0',
    renewed_subscriptions: '0',
    renewed_subscriptions_revenue: '0',
    active_subscriptions: '0',
    active_at_start: '0',
    monthly_recurring_revenue: '0',
    churned_subscriptions: '0',
    new_mrr: '0',
    churned_mrr: '0',
    expansion_mrr: '0',
    contraction_mrr: '0',
    checkouts: '0',
    succeeded_checkouts: '0',
    active_trials: '0',
    new_trials: '0',
    trial_conversions: '0',
    ended_trials: '0',
    ...over,
  });

  it('ratios are fractions, 0 over nothing; ARPU rounds up', () => {
    expect(periodValues(row()).checkouts_conversion).toBe(0);
    expect(periodValues(row({ checkouts: '3', succeeded_checkouts: '1' })).checkouts_conversion).toBeCloseTo(1 / 3);
    expect(periodValues(row({ churned_subscriptions: '1', active_at_start: '4' })).churn_rate).toBe(0.25);
    expect(periodValues(row({ revenue: '1001', ordering_customers: '2' })).average_revenue_per_user).toBe(501);
    // Conversions over the trials that ended (converted or not) in the period.
    expect(periodValues(row({ trial_conversions: '1', ended_trials: '3' })).trial_conversion_rate).toBeCloseTo(1 / 3);
    expect(periodValues(row({ new_trials: '2' })).trial_conversion_rate).toBe(0);
  });

  it('sums flows, keeps the last stock, averages rates with zeros included', () => {
    const a = periodValues(
      row({
        orders: '2',
        revenue: '300',
        cumulative_revenue: '300',
        active_subscriptions: '3',
        average_order_value: '150',
        checkouts: '2',
        succeeded_checkouts: '2',
        active_trials: '4',
        new_trials: '4',
        trial_conversions: '1',
        ended_trials: '1',
      }),
    );
    const b = periodValues(row({ cumulative_revenue: '300', active_subscriptions: '1', active_trials: '2' }));
    expect(totalsOf([a, b])).toMatchObject({
      orders: 2,
      revenue: 300,
      cumulative_revenue: 300,
      active_subscriptions: 1,
      average_order_value: 75,
      checkouts_conversion: 0.5,
      active_trials: 2,
      new_trials: 4,
      trial_conversions: 1,
      trial_conversion_rate: 0.5,
    });
    expect(totalsOf([]).active_subscriptions).toBe(0);
  });
});
