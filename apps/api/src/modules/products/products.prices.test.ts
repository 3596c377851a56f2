import { describe, expect, it } from 'vitest';
import {
  currencyIssue,
  customAmountIssues,
  meteredChargeAmount,
  normalizeUnitAmount,
  priceSetIssues,
  priceSortKeys,
  visiblePrices,
  type OrderablePrice,
  type PriceSpec,
} from './products.prices.js';

describe('normalizeUnitAmount', () => {
  it.each([
    [1, '1'],
    [0.5, '0.5'],
    [0.1, '0.1'],
    [0.3, '0.3'],
    [1e-7, '0.0000001'],
    [12.75, '12.75'],
    [99999.5, '99999.5'],
  ] as const)('reads the number %s', (input, expected) => {
    expect(normalizeUnitAmount(input)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['1', '1'],
    ['0.5', '0.5'],
    ['0.500000000000', '0.5'],
    ['00012.3400', '12.34'],
    ['.25', '0.25'],
    ['5.', '5'],
    ['1e-3', '0.001'],
    ['1.5E+3', '1500'],
    ['0.000000000001', '0.000000000001'],
    ['99999.999999999999', '99999.999999999999'],
    [' 2.50 ', '2.5'],
    ['+3', '3'],
    ['0.1000000000000000000', '0.1'],
  ])('reads the string %j as %j', (input, expected) => {
    expect(normalizeUnitAmount(input)).toEqual({ ok: true, value: expected });
  });

  it('keeps every digit that a float would lose', () => {
    // 0.1 + 0.2 in floating point is 0.30000000000000004; as decimals nothing is lost.
    expect(normalizeUnitAmount('12345.123456789012')).toEqual({ ok: true, value: '12345.123456789012' });
    expect(normalizeUnitAmount(0.30000000000000004)).toMatchObject({ ok: false });
  });

  it.each([
    ['abc', 'decimal_parsing'],
    ['', 'decimal_parsing'],
    ['1.2.3', 'decimal_parsing'],
    ['NaN', 'decimal_parsing'],
    ['Infinity', 'decimal_parsing'],
    ['0', 'greater_than'],
    ['0.000', 'greater_than'],
    ['-1', 'greater_than'],
    ['0.0000000000001', 'decimal_max_places'],
    ['100000', 'decimal_whole_digits'],
    ['1e5', 'decimal_whole_digits'],
    [Number.NaN, 'finite_number'],
    [Number.POSITIVE_INFINITY, 'finite_number'],
    [-0.5, 'greater_than'],
    [1e-13, 'decimal_max_places'],
  ] as const)('rejects %j (%s)', (input, type) => {
    const result = normalizeUnitAmount(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issue.type).toBe(type);
  });
});

describe('currencyIssue', () => {
  it.each(['usd', 'eur', 'jpy', 'gbp'])('accepts %s', (code) => expect(currencyIssue(code)).toBeUndefined());
  it.each([
    ['USD', 'string_pattern_mismatch'],
    ['us', 'string_pattern_mismatch'],
    ['usdd', 'string_pattern_mismatch'],
    ['u5d', 'string_pattern_mismatch'],
    ['zzz', 'value_error'],
  ])('rejects %s', (code, type) => expect(currencyIssue(code)?.type).toBe(type));
});

describe('customAmountIssues', () => {
  it.each([
    [{}, []],
    [{ minimum_amount: null, maximum_amount: null, preset_amount: null }, []],
    [{ minimum_amount: 0 }, []],
    [{ minimum_amount: 50, preset_amount: 50, maximum_amount: 50 }, []],
    [{ minimum_amount: 100, preset_amount: 500, maximum_amount: 1000 }, []],
    [{ preset_amount: 500 }, []],
    [{ minimum_amount: 49 }, ['minimum_amount']],
    [{ minimum_amount: 1 }, ['minimum_amount']],
    [{ minimum_amount: 1000, maximum_amount: 500 }, ['maximum_amount']],
    [{ minimum_amount: 1000, preset_amount: 500 }, ['preset_amount']],
    [{ maximum_amount: 1000, preset_amount: 5000 }, ['preset_amount']],
    [
      { minimum_amount: 1000, maximum_amount: 500, preset_amount: 700 },
      ['maximum_amount', 'preset_amount', 'preset_amount'],
    ],
  ])('%j → issues at %j', (amounts, locs) => {
    expect(customAmountIssues(amounts).map((issue) => issue.loc.join('.'))).toEqual(locs);
  });
});

describe('priceSetIssues', () => {
  const fixed = (index: number, currency = 'usd'): PriceSpec => ({
    amount_type: 'fixed',
    price_currency: currency,
    meter_id: null,
    index,
  });
  const custom = (index: number): PriceSpec => ({
    amount_type: 'custom',
    price_currency: 'usd',
    meter_id: null,
    index,
  });
  const free = (index: number): PriceSpec => ({ amount_type: 'free', price_currency: null, meter_id: null, index });
  const metered = (index: number, meter = 'm1', currency = 'usd'): PriceSpec => ({
    amount_type: 'metered_unit',
    price_currency: currency,
    meter_id: meter,
    index,
  });

  it.each([
    ['one fixed, one-time', [fixed(0)], false, []],
    ['one free, recurring', [free(0)], true, []],
    ['fixed and two meters, recurring', [fixed(0), metered(1, 'a'), metered(2, 'b')], true, []],
    ['only metered, recurring', [metered(0)], true, []],
    ['free next to metered in usd', [free(0), metered(1)], true, []],
    ['none', [], true, [['', 'At least one price is required.']]],
    ['two static', [fixed(0), custom(1)], false, [['1', 'Only one static price is allowed.']]],
    [
      'three static',
      [free(0), fixed(1), custom(2)],
      true,
      [
        ['1', 'Only one static price is allowed.'],
        ['2', 'Only one static price is allowed.'],
      ],
    ],
    [
      'metered on one-time',
      [fixed(0), metered(1)],
      false,
      [['1', 'Metered pricing is not supported on one-time products.']],
    ],
    [
      'meter twice',
      [metered(0, 'a'), metered(1, 'a')],
      true,
      [['1.meter_id', 'Meter is already used for another price.']],
    ],
    [
      'two currencies',
      [fixed(0, 'usd'), metered(1, 'a', 'eur')],
      true,
      [['1.price_currency', 'All prices of a product must use the same currency.']],
    ],
  ] as const)('%s', (_name, prices, recurring, expected) => {
    const issues = priceSetIssues(prices, recurring);
    expect(issues.map((issue) => [issue.loc.join('.'), issue.msg])).toEqual(expected);
  });
});

describe('ordering and sort keys', () => {
  const at = (iso: string) => new Date(iso);
  const price = (overrides: Partial<OrderablePrice> & { name: string }) => ({
    amount_type: 'fixed' as const,
    is_archived: false,
    created_at: at('2026-01-01T00:00:00Z'),
    position: 0,
    price_amount: 1000,
    minimum_amount: null,
    ...overrides,
  });

  it('shows non-archived prices, static first, then metered, each by creation', () => {
    const prices = [
      price({ name: 'm2', amount_type: 'metered_unit', created_at: at('2026-01-01T00:00:00Z'), position: 0 }),
      price({ name: 'fixed', amount_type: 'fixed', created_at: at('2026-01-02T00:00:00Z'), position: 2 }),
      price({ name: 'm1', amount_type: 'metered_unit', created_at: at('2026-01-01T00:00:00Z'), position: 1 }),
      price({ name: 'archived', amount_type: 'free', is_archived: true }),
    ];
    expect(visiblePrices(prices).map((p) => p.name)).toEqual(['fixed', 'm2', 'm1']);
  });

  it.each([
    ['free', [price({ name: 'a', amount_type: 'free', price_amount: null })], 1, -2],
    [
      'custom with a minimum',
      [price({ name: 'a', amount_type: 'custom', price_amount: null, minimum_amount: 700 })],
      2,
      700,
    ],
    ['custom without a minimum', [price({ name: 'a', amount_type: 'custom', price_amount: null })], 2, -1],
    ['fixed', [price({ name: 'a', price_amount: 2500 })], 3, 2500],
    ['metered', [price({ name: 'a', amount_type: 'metered_unit', price_amount: null })], 4, null],
    ['no price', [], null, null],
    [
      'the first non-archived by creation, whatever its kind',
      [
        price({ name: 'late fixed', price_amount: 100, created_at: at('2026-02-01T00:00:00Z') }),
        price({ name: 'early metered', amount_type: 'metered_unit', price_amount: null, position: 1 }),
        price({
          name: 'archived free',
          amount_type: 'free',
          is_archived: true,
          created_at: at('2025-01-01T00:00:00Z'),
        }),
      ],
      4,
      null,
    ],
    [
      'ties in creation broken by position',
      [price({ name: 'b', price_amount: 900, position: 1 }), price({ name: 'a', price_amount: 300, position: 0 })],
      3,
      300,
    ],
  ] as const)('%s', (_name, prices, type, amount) => {
    expect(priceSortKeys(prices)).toEqual({ price_sort_type: type, price_sort_amount: amount });
  });
});

describe('meteredChargeAmount', () => {
  it.each([
    ['0.5', 3, 0, null, 2], // 1.5 rounds half up
    ['0.5', 5, 0, null, 3], // 2.5 rounds half up
    ['0.4', 5, 0, null, 2],
    ['12', 10, 4, null, 72],
    ['12', 3, 10, null, 0], // credits beyond consumption charge nothing
    ['100', 1000, 0, 5000, 5000], // capped
    ['0.000000000001', 1_000_000_000_000, 0, null, 1],
    ['0.1', '0.3', 0, null, 0], // 0.03
    ['2.5', 1.5, 0.5, null, 3], // 2.5 × 1 = 2.5 → 3
    ['0.3333', 3, 0, 0, 0], // a zero cap charges nothing
  ] as const)('%s × (%s − %s) capped at %s = %s', (unit, consumed, credited, cap, expected) => {
    expect(meteredChargeAmount(unit, consumed, credited, cap)).toBe(expected);
  });
});
