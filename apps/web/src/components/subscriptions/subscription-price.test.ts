import { describe, expect, it } from 'vitest';
import {
  describePriceWithNext,
  describeSubscriptionPrice,
  nextPeriodAmount,
  type PricedSubscription,
} from './subscription-price';

const fixed = (price_amount: number) => ({ amount_type: 'fixed', price_amount });
const sub = (overrides: Partial<PricedSubscription>): PricedSubscription => ({
  amount: 900,
  currency: 'usd',
  recurring_interval: 'month',
  discount: null,
  prices: [fixed(1200)],
  ...overrides,
});

describe('describeSubscriptionPrice', () => {
  it.each<[string, Partial<PricedSubscription>, string]>([
    ['no discount', { amount: 1200 }, '$12.00 / month'],
    ['once', { discount: { duration: 'once', duration_in_months: null } }, 'first payment $9.00, then $12.00 / month'],
    [
      'repeating 3 months',
      { discount: { duration: 'repeating', duration_in_months: 3 } },
      '$9.00 / month for the first 3 months, then $12.00 / month',
    ],
    [
      'repeating 1 month',
      { discount: { duration: 'repeating', duration_in_months: 1 } },
      '$9.00 / month for the first month, then $12.00 / month',
    ],
    ['the portal: no discount on the wire', { discount: undefined }, '$9.00 / month'],
    [
      'no price snapshot',
      { discount: { duration: 'once', duration_in_months: null }, prices: undefined },
      '$9.00 / month',
    ],
    ['forever', { discount: { duration: 'forever', duration_in_months: null } }, '$9.00 / month'],
    [
      'a discount already used up (amount back to full)',
      { amount: 1200, discount: { duration: 'once', duration_in_months: null } },
      '$12.00 / month',
    ],
    [
      'pay what you want: the full amount is unknown',
      {
        discount: { duration: 'once', duration_in_months: null },
        prices: [{ amount_type: 'custom', price_amount: null }],
      },
      '$9.00 / month',
    ],
    [
      'metered prices are not part of the amount',
      {
        discount: { duration: 'once', duration_in_months: null },
        prices: [fixed(1200), { amount_type: 'metered_unit' }],
      },
      'first payment $9.00, then $12.00 / month',
    ],
    [
      'yearly',
      {
        amount: 9000,
        recurring_interval: 'year',
        prices: [fixed(12000)],
        discount: { duration: 'once', duration_in_months: null },
      },
      'first payment $90.00, then $120.00 / year',
    ],
  ])('%s', (_name, overrides, expected) => {
    expect(describeSubscriptionPrice(sub(overrides))).toBe(expected);
  });
});

describe('describePriceWithNext', () => {
  const base = { amount: 900, currency: 'usd', recurring_interval: 'month' as const };
  it.each<[string, number | null, boolean, string]>([
    ['no renewal known', null, true, '$9.00 / month'],
    ['same price next period', 900, true, '$9.00 / month'],
    ['a once discount ends after the first payment', 1200, true, 'first payment $9.00, then $12.00 / month'],
    ['a discount ends after this period', 1200, false, 'this period $9.00, then $12.00 / month'],
  ])('%s', (_, next, first, expected) => {
    expect(describePriceWithNext(base, next, first)).toBe(expected);
  });
});

describe('nextPeriodAmount', () => {
  it('sums the period lines at the discount, leaving proration out', () => {
    const renewal = {
      items: [
        { amount: 1200, proration: false },
        { amount: -300, proration: true },
      ],
      discount_amount: 300,
    };
    expect(nextPeriodAmount(renewal)).toBe(900);
  });
});
