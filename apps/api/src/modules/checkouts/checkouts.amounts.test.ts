import { describe, expect, it } from 'vitest';
import { divideRoundHalfAwayFromZero } from '../billing/billing.money.js';
import {
  billingAddressFields,
  checkoutAmounts,
  checkoutFlags,
  discountAmount,
  hasStreetAddress,
  presetForcesFullAddress,
  priceAmount,
  priceCurrency,
  type DiscountForAmount,
  type PriceForAmount,
} from './checkouts.amounts.js';

const fixed = (price_amount: number, price_currency = 'usd'): PriceForAmount => ({
  amount_type: 'fixed',
  price_amount,
  price_currency,
  preset_amount: null,
});
const custom = (preset_amount: number | null = null): PriceForAmount => ({
  amount_type: 'custom',
  price_amount: null,
  price_currency: 'usd',
  preset_amount,
});
const free: PriceForAmount = { amount_type: 'free', price_amount: null, price_currency: null, preset_amount: null };
const metered: PriceForAmount = {
  amount_type: 'metered_unit',
  price_amount: null,
  price_currency: 'eur',
  preset_amount: null,
};
const percent = (basis_points: number, duration: DiscountForAmount['duration'] = 'once'): DiscountForAmount => ({
  type: 'percentage',
  duration,
  basis_points,
  amount: null,
  currency: null,
});
const off = (amount: number): DiscountForAmount => ({
  type: 'fixed',
  duration: 'once',
  amount,
  currency: 'usd',
  basis_points: null,
});

describe('priceAmount and priceCurrency', () => {
  it.each([
    ['fixed', fixed(2500), undefined, 2500],
    ['fixed ignores a requested amount', fixed(2500), 9999, 2500],
    ['custom, requested', custom(1500), 700, 700],
    ['custom, requested 0', custom(1500), 0, 0],
    ['custom, preset', custom(1500), null, 1500],
    ['custom, fallback $10', custom(null), undefined, 1000],
    ['free', free, 500, 0],
    ['metered', metered, undefined, 0],
  ] as const)('%s', (_name, price, requested, expected) => {
    expect(priceAmount(price, requested)).toBe(expected);
  });

  it('uses the price currency, usd for free prices', () => {
    expect(priceCurrency(fixed(100, 'eur'))).toBe('eur');
    expect(priceCurrency(free)).toBe('usd');
  });
});

describe('rounding and discounts', () => {
  it.each([
    [125, 10, 13],
    [124, 10, 12],
    [-125, 10, -13],
    [0, 10, 0],
    [5, 10, 1],
    [4, 10, 0],
  ])('%i / %i → %i (half away from zero)', (n, d, expected) => {
    expect(divideRoundHalfAwayFromZero(n, d)).toBe(expected);
  });

  it.each([
    ['none', null, 1000, 0],
    ['10 % of 1000', percent(1000), 1000, 100],
    ['12.5 % of 100 = 12.5 → 13', percent(1250), 100, 13],
    ['33.33 % of 1000 = 333.3 → 333', percent(3333), 1000, 333],
    ['15 % of 1999 = 299.85 → 300', percent(1500), 1999, 300],
    ['100 %', percent(10_000), 4900, 4900],
    ['fixed below the amount', off(300), 1000, 300],
    ['fixed capped at the amount', off(5000), 1000, 1000],
    ['fixed on 0', off(300), 0, 0],
    ['percentage on 0', percent(5000), 0, 0],
  ] as const)('%s', (_name, discount, amount, expected) => {
    expect(discountAmount(discount, amount)).toBe(expected);
  });
});

describe('checkoutAmounts', () => {
  it.each([
    [
      'no discount, tax unknown',
      1000,
      null,
      null,
      { discount_amount: 0, net_amount: 1000, tax_amount: null, total_amount: 1000 },
    ],
    ['no discount, tax 0', 1000, null, 0, { discount_amount: 0, net_amount: 1000, tax_amount: 0, total_amount: 1000 }],
    [
      'percentage with tax',
      1000,
      percent(2000),
      160,
      { discount_amount: 200, net_amount: 800, tax_amount: 160, total_amount: 960 },
    ],
    ['fixed capped', 500, off(700), null, { discount_amount: 500, net_amount: 0, tax_amount: null, total_amount: 0 }],
    ['free', 0, null, 0, { discount_amount: 0, net_amount: 0, tax_amount: 0, total_amount: 0 }],
  ] as const)('%s', (_name, amount, discount, tax, expected) => {
    expect(checkoutAmounts(amount, discount, tax)).toEqual({ amount, ...expected });
  });
});

describe('checkoutFlags', () => {
  const flags = (
    prices: PriceForAmount[],
    price: PriceForAmount,
    isRecurring: boolean,
    amount: number,
    totalAmount: number,
    discount: DiscountForAmount | null = null,
  ) => checkoutFlags({ productPrices: prices, price, isRecurring, amount, totalAmount, discount });
  const F = (d: boolean, f: boolean, p: boolean, s: boolean, form: boolean) => ({
    is_discount_applicable: d,
    is_free_product_price: f,
    is_payment_required: p,
    is_payment_setup_required: s,
    is_payment_form_required: form,
  });

  it.each([
    ['one-time fixed', [fixed(1000)], fixed(1000), false, 1000, 1000, null, F(true, false, true, false, true)],
    ['one-time free', [free], free, false, 0, 0, null, F(false, true, false, false, false)],
    ['recurring free', [free], free, true, 0, 0, null, F(false, true, false, false, false)],
    ['recurring fixed', [fixed(1000)], fixed(1000), true, 1000, 1000, null, F(true, false, true, true, true)],
    [
      'one-time 100 % off',
      [fixed(1000)],
      fixed(1000),
      false,
      1000,
      0,
      percent(10_000),
      F(true, false, false, false, false),
    ],
    [
      'recurring 100 % once still saves a method',
      [fixed(1000)],
      fixed(1000),
      true,
      1000,
      0,
      percent(10_000),
      F(true, false, false, true, true),
    ],
    [
      'recurring 100 % forever',
      [fixed(1000)],
      fixed(1000),
      true,
      1000,
      0,
      percent(10_000, 'forever'),
      F(true, false, false, false, false),
    ],
    ['pay what you want 0, one-time', [custom()], custom(), false, 0, 0, null, F(true, false, false, false, false)],
    ['pay what you want 0, recurring', [custom()], custom(), true, 0, 0, null, F(true, false, false, false, false)],
    [
      'pay what you want 0 with metered',
      [custom(), metered],
      custom(),
      true,
      0,
      0,
      null,
      F(true, false, false, true, true),
    ],
    ['pay what you want 500', [custom()], custom(), false, 500, 500, null, F(true, false, true, false, true)],
    ['metered only', [metered], metered, true, 0, 0, null, F(true, false, false, true, true)],
  ] as const)('%s', (_name, prices, price, recurring, amount, total, discount, expected) => {
    expect(flags([...prices], price, recurring, amount, total, discount)).toEqual(expected);
  });
});

describe('billing address fields', () => {
  it.each([
    [false, false, null, { country: true, state: false, city: false, postal_code: false, line1: false, line2: false }],
    [false, false, 'FR', { country: true, state: false, city: false, postal_code: false, line1: false, line2: false }],
    [false, false, 'CA', { country: true, state: true, city: false, postal_code: false, line1: false, line2: false }],
    [false, false, 'US', { country: true, state: true, city: true, postal_code: true, line1: true, line2: true }],
    [true, false, 'FR', { country: true, state: true, city: true, postal_code: true, line1: true, line2: true }],
    [false, true, null, { country: true, state: true, city: true, postal_code: true, line1: true, line2: true }],
  ] as const)(
    'required %s, business %s, country %s',
    (requireBillingAddress, isBusinessCustomer, country, expected) => {
      expect(billingAddressFields({ requireBillingAddress, isBusinessCustomer, country })).toEqual(expected);
    },
  );

  const address = (parts: Record<string, string | null>) => ({
    line1: null,
    line2: null,
    city: null,
    postal_code: null,
    state: null,
    country: 'FR',
    ...parts,
  });
  it('forces the full address for street-level presets or a state outside US/CA', () => {
    expect(presetForcesFullAddress(null)).toBe(false);
    expect(presetForcesFullAddress(address({}))).toBe(false);
    expect(presetForcesFullAddress(address({ city: 'Paris' }))).toBe(true);
    expect(presetForcesFullAddress(address({ state: 'IDF' }))).toBe(true);
    expect(presetForcesFullAddress(address({ country: 'US', state: 'US-NY' }))).toBe(false);
    expect(hasStreetAddress(address({}))).toBe(false);
    expect(hasStreetAddress(address({ postal_code: '75001' }))).toBe(true);
  });
});
