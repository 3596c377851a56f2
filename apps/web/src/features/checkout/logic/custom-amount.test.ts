import { describe, expect, it } from 'vitest';
import { customPrice } from '../testing/fixtures';
import { customAmountBounds, describeBounds, parseCustomAmount } from './custom-amount';

const bounds = customAmountBounds(
  customPrice('p', { minimum_amount: 500, maximum_amount: 10_000, preset_amount: 2000 }),
);

describe('customAmountBounds', () => {
  it('takes 0.50 as the minimum when the seller set none', () => {
    expect(customAmountBounds(customPrice('p', { minimum_amount: null, maximum_amount: null }))).toMatchObject({
      minimum: 50,
      maximum: null,
    });
  });
});

describe('describeBounds', () => {
  it('words the minimum and maximum', () => {
    expect(describeBounds(bounds)).toBe('Minimum $5.00, maximum $100.00.');
    expect(describeBounds({ ...bounds, minimum: 0, maximum: null })).toBe('Any amount.');
  });
});

describe('parseCustomAmount', () => {
  it.each([
    ['20', { ok: true, amount: 2000 }],
    ['12.5', { ok: true, amount: 1250 }],
    ['5', { ok: true, amount: 500 }],
    ['100.00', { ok: true, amount: 10_000 }],
    ['', { ok: false, error: 'Enter an amount.' }],
    ['ten', { ok: false, error: 'Enter an amount such as 12.50.' }],
    ['4.99', { ok: false, error: 'Enter at least $5.00.' }],
    ['100.01', { ok: false, error: 'Enter at most $100.00.' }],
  ])('%s → %j', (text, expected) => {
    expect(parseCustomAmount(text, bounds)).toEqual(expected);
  });

  it('takes 0 when the seller allows it, but nothing between 0 and the smallest charge', () => {
    const free = { ...bounds, minimum: 0 };
    expect(parseCustomAmount('0', free)).toEqual({ ok: true, amount: 0 });
    expect(parseCustomAmount('0.20', free)).toEqual({
      ok: false,
      error: 'Enter 0 or at least $0.50: smaller payments cannot be charged.',
    });
  });

  it('caps an unbounded price at the largest checkout amount', () => {
    expect(parseCustomAmount('1000000', { ...bounds, maximum: null })).toEqual({
      ok: false,
      error: 'Enter at most $999,999.99.',
    });
  });
});
