import { describe, expect, it } from 'vitest';
import {
  addMonths,
  discountAmount,
  discountCovers,
  divideRoundHalfAwayFromZero,
  divideRoundHalfEven,
  carriedCredits,
  centsAsDollars,
  formatUnits,
  meteredLineAmount,
  meteredLineLabel,
  carryCreditToBalance,
  priceSubscriptionOrder,
  prorate,
  prorationEntries,
  settleWithBalance,
  CREDIT_TO_BALANCE_LABEL,
} from './billing.money.js';

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

describe('discountCovers', () => {
  const started = d('2026-01-15T12:00:00Z');
  const repeating3 = { duration: 'repeating' as const, duration_in_months: 3 };
  it.each([
    ['once: first period', { duration: 'once' as const, duration_in_months: null }, started, true],
    ['once: first renewal', { duration: 'once' as const, duration_in_months: null }, d('2026-02-15T12:00:00Z'), false],
    [
      'once: a period before it applied',
      { duration: 'once' as const, duration_in_months: null },
      d('2025-12-15T12:00:00Z'),
      false,
    ],
    ['forever', { duration: 'forever' as const, duration_in_months: null }, d('2036-02-15T12:00:00Z'), true],
    [
      'forever: a period before it applied',
      { duration: 'forever' as const, duration_in_months: null },
      d('2026-01-01T00:00:00Z'),
      false,
    ],
    ['repeating 3: Feb', repeating3, d('2026-02-15T12:00:00Z'), true],
    ['repeating 3: Mar', repeating3, d('2026-03-15T12:00:00Z'), true],
    ['repeating 3: Apr', repeating3, d('2026-04-15T12:00:00Z'), false],
    [
      'repeating 12, yearly: second year',
      { duration: 'repeating' as const, duration_in_months: 12 },
      d('2027-01-15T12:00:00Z'),
      false,
    ],
  ])('%s', (_, discount, periodStart, expected) =>
    expect(discountCovers(discount, started, periodStart)).toBe(expected),
  );
});

describe('addMonths with an anchor day', () => {
  it.each([
    ['2026-02-28T00:00:00Z', 1, 31, '2026-03-31T00:00:00.000Z'],
    ['2026-04-30T00:00:00Z', 1, 31, '2026-05-31T00:00:00.000Z'],
    ['2028-02-29T00:00:00Z', 12, 29, '2029-02-28T00:00:00.000Z'],
    ['2031-02-28T00:00:00Z', 12, 29, '2032-02-29T00:00:00.000Z'],
  ])('%s + %i months on day %i', (from, months, anchor, expected) =>
    expect(addMonths(d(from), months, anchor).toISOString()).toBe(expected),
  );
});

describe('discountAmount', () => {
  const percent = (basis_points: number) => ({ type: 'percentage' as const, amount: null, basis_points });
  const fixed = (amount: number) => ({ type: 'fixed' as const, amount, basis_points: null });
  it.each([
    ['no discount', null, 1000, 0],
    ['10 %', percent(1000), 1000, 100],
    ['12.5 rounds half away from zero', percent(1250), 100, 13],
    ['100 %', percent(10_000), 999, 999],
    ['fixed below the amount', fixed(300), 1000, 300],
    ['fixed capped at the amount', fixed(5000), 1000, 1000],
    ['nothing off a zero amount', fixed(300), 0, 0],
    ['nothing off a negative amount', percent(5000), -100, 0],
    ['large amounts stay exact', percent(3333), 99_999_999_999, 33_330_000_000],
  ])('%s', (_, discount, amount, expected) => expect(discountAmount(discount, amount)).toBe(expected));

  it.each([
    [25, 2, 13],
    [-25, 2, -13],
    [24, 2, 12],
    [1, 3, 0],
    [2, 3, 1],
  ])('divideRoundHalfAwayFromZero(%i, %i) = %i', (n, den, expected) =>
    expect(divideRoundHalfAwayFromZero(n, den)).toBe(expected),
  );
});

describe('priceSubscriptionOrder', () => {
  const line = (amount: number) => ({ label: 'Plan', amount, product_price_id: 'p' });
  const entry = (id: string, amount: number) => ({ id, label: `Entry ${id}`, amount, product_price_id: null });
  const half = { type: 'percentage' as const, amount: null, basis_points: 5000 };
  const rows: [string, ReturnType<typeof line>[], ReturnType<typeof entry>[], typeof half | null, object][] = [
    ['a plain renewal', [line(2000)], [], null, { subtotal: 2000, discount: 0, net: 2000 }],
    [
      'the discount only on the period lines',
      [line(2000)],
      [entry('a', 500)],
      half,
      { subtotal: 2500, discount: 1000, net: 1500 },
    ],
    ['a credit smaller than the order', [line(2000)], [entry('a', -1500)], null, { subtotal: 500, net: 500 }],
    ['a credit exactly the order', [line(2000)], [entry('a', -2000)], null, { subtotal: 0, net: 0 }],
    [
      'a credit larger than the order: a net credit',
      [line(2000)],
      [entry('a', -4993), entry('b', 1997)],
      null,
      { subtotal: -996, net: -996 },
    ],
    [
      'a credit with a 100 % discount',
      [line(2000)],
      [entry('a', -100)],
      { ...half, basis_points: 10_000 },
      { subtotal: 1900, discount: 2000, net: -100 },
    ],
    [
      'only entries (a plan change billed at once)',
      [],
      [entry('a', -500), entry('b', 50_000)],
      null,
      { subtotal: 49_500, net: 49_500 },
    ],
    ['only credits', [], [entry('a', -4993), entry('b', 1997)], null, { subtotal: -2996, net: -2996 }],
  ];
  it.each(rows)('%s', (_, cycle, entries, discount, expected) => {
    const priced = priceSubscriptionOrder(cycle, entries, discount);
    expect(priced).toMatchObject(expected);
    expect(priced.items.reduce((sum, item) => sum + item.amount, 0)).toBe(priced.subtotal);
    expect(priced.net).toBe(priced.subtotal - priced.discount);
    expect(priced.entryIds).toEqual(entries.map((e) => e.id));
  });
});

describe('carryCreditToBalance', () => {
  const taxed = (amount: number, tax_amount: number) => ({
    label: `Line ${amount}`,
    amount,
    tax_amount,
    product_price_id: null,
    proration: true,
  });
  const rows: [string, ReturnType<typeof taxed>[], number, object, ReturnType<typeof taxed> | null][] = [
    ['an order to pay', [taxed(2000, 400)], 0, { subtotal: 2000, tax: 400, total: 2400, credited: 0 }, null],
    ['a credit smaller than the order', [taxed(-500, 0), taxed(2000, 300)], 0, { total: 1800, credited: 0 }, null],
    // The invoiced downgrade: −4993 + 999 = −3994, its VAT −799 carried with it: 4793 to the balance.
    [
      'a net credit with its tax',
      [taxed(-4993, -799), taxed(999, 0)],
      0,
      { subtotal: 0, tax: 0, total: 0, credited: 4793 },
      { ...taxed(3994, 799), label: CREDIT_TO_BALANCE_LABEL },
    ],
    [
      'a net credit without tax',
      [taxed(2000, 0), taxed(-4993, 0), taxed(1997, 0)],
      0,
      { subtotal: 0, tax: 0, total: 0, credited: 996 },
      { ...taxed(996, 0), label: CREDIT_TO_BALANCE_LABEL },
    ],
    [
      'a credit under a 100 % discount',
      [taxed(2000, 0), taxed(-100, -20)],
      2000,
      { subtotal: 2000, tax: 0, total: 0, credited: 120 },
      { ...taxed(100, 20), label: CREDIT_TO_BALANCE_LABEL },
    ],
  ];
  it.each(rows)('%s', (_, items, discount, expected, balanceLine) => {
    const settled = carryCreditToBalance(items, discount);
    expect(settled).toMatchObject(expected);
    expect(settled.items.reduce((sum, item) => sum + item.amount, 0)).toBe(settled.subtotal);
    expect(settled.items.reduce((sum, item) => sum + item.tax_amount, 0)).toBe(settled.tax);
    expect(settled.subtotal - discount).toBeGreaterThanOrEqual(0);
    expect(settled.total).toBe(settled.subtotal - discount + settled.tax);
    expect(settled.items.length).toBe(items.length + (balanceLine ? 1 : 0));
    if (balanceLine) expect(settled.items.at(-1)).toEqual(balanceLine);
    // Nothing dropped: what the lines come to (tax included) is the total less what went to the balance.
    const lines = items.reduce((sum, item) => sum + item.amount + item.tax_amount, 0) - discount;
    expect(lines).toBe(settled.total - settled.credited);
  });
});

describe('settleWithBalance', () => {
  it.each([
    [2000, 0, { applied: 0, due: 2000 }],
    [2000, 996, { applied: 996, due: 1004 }],
    [2000, 2996, { applied: 2000, due: 0 }],
    [0, 500, { applied: 0, due: 0 }],
    [2000, -5, { applied: 0, due: 2000 }],
  ])('total %i with a balance of %i', (total, balance, expected) =>
    expect(settleWithBalance(total, balance)).toEqual(expected),
  );
});

describe('meteredLineAmount', () => {
  it.each([
    ['whole cents', { units: 10, credited: 0, unitAmount: '50', capAmount: null }, 500, false],
    ['half a cent a unit, rounded half up', { units: 5, credited: 0, unitAmount: '0.5', capAmount: null }, 3, false],
    ['credits first', { units: 10, credited: 4, unitAmount: '100', capAmount: null }, 600, false],
    ['credits beyond the usage: nothing', { units: 3, credited: 10, unitAmount: '100', capAmount: null }, 0, false],
    ['twelve decimals', { units: 1_000_000, credited: 0, unitAmount: '0.000000000001', capAmount: null }, 0, false],
    ['tiny prices add up exactly', { units: 3, credited: 0, unitAmount: '0.166666666667', capAmount: null }, 1, false],
    ['fractional units', { units: 2.5, credited: 0, unitAmount: '3', capAmount: null }, 8, false],
    ['capped', { units: 1000, credited: 0, unitAmount: '10', capAmount: 5000 }, 5000, true],
    ['under the cap', { units: 10, credited: 0, unitAmount: '10', capAmount: 5000 }, 100, false],
    [
      'large volumes stay exact',
      { units: 123_456_789, credited: 0, unitAmount: '0.001', capAmount: null },
      123_457,
      false,
    ],
  ])('%s', (_, input, amount, capped) => {
    expect(meteredLineAmount(input)).toMatchObject({ amount, capped });
  });
});

describe('centsAsDollars', () => {
  it.each([
    [50, '0.50'],
    ['0.5', '0.005'],
    [123456, '1234.56'],
    ['0.000000000001', '0.00000000000001'],
    [0, '0.00'],
    ['1234.5', '12.345'],
  ])('%s cents', (cents, dollars) => expect(centsAsDollars(cents)).toBe(dollars));
});

describe('formatUnits', () => {
  it.each([
    [0, '0'],
    [1234, '1,234'],
    [1234.5, '1,234.5'],
    [2.0004, '2'],
    [0.1235, '0.124'],
  ])('%s', (units, text) => expect(formatUnits(units)).toBe(text));
});

describe('meteredLineLabel', () => {
  it.each([
    [
      'units beyond the credits at the unit price',
      { units: 1500, credited: 500, unitAmount: '2', capAmount: null },
      'API calls — (1,000 consumed units) × $0.02',
    ],
    [
      'a fraction of a cent',
      { units: 5, credited: 0, unitAmount: '0.5', capAmount: null },
      'API calls — (5 consumed units) × $0.005',
    ],
    [
      'capped',
      { units: 1000, credited: 0, unitAmount: '10', capAmount: 5000 },
      'API calls — (1,000 consumed units) × $0.10 — Capped at $50.00',
    ],
    [
      'under the cap says nothing of it',
      { units: 10, credited: 0, unitAmount: '10', capAmount: 5000 },
      'API calls — (10 consumed units) × $0.10',
    ],
    [
      'credits beyond the usage: no units',
      { units: 3, credited: 10, unitAmount: '100', capAmount: null },
      'API calls — (0 consumed units) × $1.00',
    ],
  ])('%s', (_, input, label) => {
    expect(meteredLineLabel('API calls', meteredLineAmount(input), input)).toBe(label);
  });
});

describe('carriedCredits', () => {
  it.each([
    [
      'renewal: the rollover credits left',
      { rolloverUnits: 30, unusedUnits: 30 },
      'rollover',
      { rollover: 30, other: 0 },
    ],
    [
      'renewal: credits without rollover expire',
      { rolloverUnits: 0, unusedUnits: 50 },
      'rollover',
      { rollover: 0, other: 0 },
    ],
    ['plan change: every unused credit', { rolloverUnits: 30, unusedUnits: 80 }, 'unused', { rollover: 30, other: 50 }],
    ['plan change: nothing left', { rolloverUnits: 0, unusedUnits: 0 }, 'unused', { rollover: 0, other: 0 }],
    ['end: nothing carried', { rolloverUnits: 30, unusedUnits: 80 }, 'nothing', { rollover: 0, other: 0 }],
    ['whole units only', { rolloverUnits: 2.9, unusedUnits: 5.5 }, 'unused', { rollover: 2, other: 3 }],
  ] as const)('%s', (_, window, carry, expected) => expect(carriedCredits(window, carry)).toEqual(expected));
});
