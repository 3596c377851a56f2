import { describe, expect, it } from 'vitest';
import { mainCurrency, organizationNow, otherCurrencies, revenuePerDay, windowStart } from './revenue';

// Local times, so the days are the same whatever the time zone of the machine running the tests.
const at = (day: number, hour = 12) => new Date(2026, 0, day, hour).toISOString();
const order = (overrides: Partial<Parameters<typeof revenuePerDay>[0][number]> = {}) => ({
  created_at: at(15),
  status: 'paid' as const,
  net_amount: 2500,
  refunded_amount: 0,
  currency: 'usd',
  ...overrides,
});

describe('organizationNow', () => {
  const browser = new Date(2026, 0, 30, 18).getTime();
  it.each([
    [null, new Date(2026, 0, 30, 18)],
    [undefined, new Date(2026, 0, 30, 18)],
    [0, new Date(2026, 0, 30, 18)],
    [3 * 86_400, new Date(2026, 1, 2, 18)],
    [3_600, new Date(2026, 0, 30, 19)],
  ])('offset %s seconds → %s', (offset, expected) => {
    expect(organizationNow(browser, offset)).toEqual(expected);
  });
  it('moves the chart window with the test clock', () => {
    expect(windowStart(organizationNow(browser, 3 * 86_400), 30)).toEqual(new Date(2026, 0, 4));
  });
});

describe('windowStart', () => {
  it('is local midnight of the first of the days ending today', () => {
    expect(windowStart(new Date(2026, 0, 30, 18), 30)).toEqual(new Date(2026, 0, 1));
  });
});

describe('revenuePerDay', () => {
  const today = new Date(2026, 0, 30, 18);

  it('has one entry per day, today last, zero without orders', () => {
    const series = revenuePerDay([], 'usd', today, 30);
    expect(series).toHaveLength(30);
    expect(series[0]!.day).toBe('2026-01-01');
    expect(series[29]!.day).toBe('2026-01-30');
    expect(series.every((day) => day.amount === 0)).toBe(true);
  });

  it('sums the net amount of paid orders by local day, less refunds', () => {
    const series = revenuePerDay(
      [
        order({ created_at: at(15, 0) }),
        order({ created_at: at(15, 23), net_amount: 1000, refunded_amount: 400, status: 'partially_refunded' }),
        order({ created_at: at(16), net_amount: 900, refunded_amount: 900, status: 'refunded' }),
      ],
      'usd',
      today,
      30,
    );
    const byDay = Object.fromEntries(series.map((day) => [day.day, day.amount]));
    expect(byDay['2026-01-15']).toBe(2500 + 600);
    expect(byDay['2026-01-16']).toBe(0);
  });

  it('leaves out pending orders, other currencies and days outside the window', () => {
    const series = revenuePerDay(
      [
        order({ status: 'pending' }),
        order({ currency: 'eur' }),
        order({ created_at: new Date(2025, 11, 31, 23).toISOString() }),
      ],
      'usd',
      today,
      30,
    );
    expect(series.reduce((sum, day) => sum + day.amount, 0)).toBe(0);
  });
});

describe('mainCurrency', () => {
  it('is the currency of most paid orders', () => {
    expect(mainCurrency([order({ currency: 'eur' }), order(), order()])).toBe('usd');
  });

  it('is null without paid orders', () => {
    expect(mainCurrency([order({ status: 'pending' })])).toBeNull();
  });
});

describe('otherCurrencies', () => {
  it('lists the paid currencies left out, once each', () => {
    expect(otherCurrencies([order(), order({ currency: 'eur' }), order({ currency: 'eur' })], 'usd')).toEqual(['eur']);
  });
});
