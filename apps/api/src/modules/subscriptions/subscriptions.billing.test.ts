import { describe, expect, it } from 'vitest';
import {
  addMonths,
  divideRoundHalfEven,
  isDiscountExpired,
  nextRetryAt,
  prorate,
  prorationEntries,
} from './subscriptions.billing.js';

const d = (iso: string) => new Date(iso);

describe('divideRoundHalfEven', () => {
  it.each([
    [5n, 2n, 2n],
    [7n, 2n, 4n],
    [-5n, 2n, -2n],
    [-7n, 2n, -4n],
    [10n, 3n, 3n],
    [11n, 3n, 4n],
    [0n, 7n, 0n],
  ])('%s / %s = %s', (n, den, expected) => expect(divideRoundHalfEven(n, den)).toBe(expected));
});

describe('prorate', () => {
  const start = d('2026-01-01T00:00:00Z');
  const end = d('2026-01-31T00:00:00Z'); // 30 days
  it.each([
    ['at the start', '2026-01-01T00:00:00Z', 3000, 3000],
    ['half way', '2026-01-16T00:00:00Z', 3000, 1500],
    ['a third left', '2026-01-21T00:00:00Z', 3000, 1000],
    ['at the end', '2026-01-31T00:00:00Z', 3000, 0],
    ['after the end', '2026-02-10T00:00:00Z', 3000, 0],
    ['before the start', '2025-12-10T00:00:00Z', 3000, 3000],
    ['half a cent rounds to even (down)', '2026-01-16T00:00:00Z', 1, 0],
    ['half a cent rounds to even (up)', '2026-01-16T00:00:00Z', 3, 2],
    ['large amounts stay exact', '2026-01-16T00:00:00Z', 99_999_999_998, 49_999_999_999],
  ])('%s', (_, now, amount, expected) => expect(prorate(amount, start, end, d(now))).toBe(expected));

  it('credits the old plan and debits the new one for the time left', () => {
    expect(
      prorationEntries({
        periodStart: start,
        periodEnd: end,
        now: d('2026-01-16T00:00:00Z'),
        oldAmounts: [1000],
        newAmounts: [3000, 0],
      }),
    ).toEqual({ credits: [-500], debits: [1500, 0] });
  });
});

describe('addMonths', () => {
  it.each([
    ['2026-01-31T10:00:00Z', 1, '2026-02-28T10:00:00.000Z'],
    ['2028-01-31T10:00:00Z', 1, '2028-02-29T10:00:00.000Z'],
    ['2026-01-15T00:00:00Z', 2, '2026-03-15T00:00:00.000Z'],
    ['2026-11-30T00:00:00Z', 3, '2027-02-28T00:00:00.000Z'],
    ['2026-05-05T00:00:00Z', 0, '2026-05-05T00:00:00.000Z'],
  ])('%s + %i months', (from, months, expected) => expect(addMonths(d(from), months).toISOString()).toBe(expected));
});

describe('isDiscountExpired', () => {
  const started = d('2026-01-15T12:00:00Z');
  const repeating3 = { duration: 'repeating' as const, duration_in_months: 3 };
  it.each([
    ['once: first period', { duration: 'once' as const, duration_in_months: null }, started, false],
    ['once: first renewal', { duration: 'once' as const, duration_in_months: null }, d('2026-02-15T12:00:00Z'), true],
    ['forever', { duration: 'forever' as const, duration_in_months: null }, d('2036-02-15T12:00:00Z'), false],
    ['repeating 3: Feb', repeating3, d('2026-02-15T12:00:00Z'), false],
    ['repeating 3: Mar', repeating3, d('2026-03-15T12:00:00Z'), false],
    ['repeating 3: Apr', repeating3, d('2026-04-15T12:00:00Z'), true],
    [
      'repeating 12, yearly: second year',
      { duration: 'repeating' as const, duration_in_months: 12 },
      d('2027-01-15T12:00:00Z'),
      true,
    ],
  ])('%s', (_, discount, periodStart, expected) =>
    expect(isDiscountExpired(discount, started, periodStart)).toBe(expected),
  );
});

describe('nextRetryAt', () => {
  const now = d('2026-01-01T00:00:00Z');
  it.each([
    [1, 'card_declined', '2026-01-03T00:00:00.000Z'],
    [2, 'card_declined', '2026-01-06T00:00:00.000Z'],
    [3, 'insufficient_funds', '2026-01-08T00:00:00.000Z'],
    [4, 'card_declined', '2026-01-08T00:00:00.000Z'],
    [5, 'card_declined', null],
    [1, 'stolen_card', null],
    [1, 'expired_card', null],
  ])('failure %i (%s)', (failures, reason, expected) =>
    expect(nextRetryAt(failures, reason, now)?.toISOString() ?? null).toBe(expected),
  );
});
