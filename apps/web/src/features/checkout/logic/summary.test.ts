import { describe, expect, it } from 'vitest';
import { checkoutFixture, customPrice, fixedPrice, product } from '../testing/fixtures';
import {
  availableProducts,
  confirmLabel,
  discountDurationWords,
  discountLabel,
  orderSummary,
  trialLength,
  trialUnavailableWords,
  trialWords,
  priceLabel,
} from './summary';

const monthly = product(
  'Pro plan',
  (id) => [fixedPrice(id, 2500, { type: 'recurring', recurring_interval: 'month' })],
  {
    recurring_interval: 'month',
    is_recurring: true,
  },
);
const percent = {
  id: '00000000-0000-4000-8000-0000000000d1',
  name: 'Launch',
  code: 'LAUNCH20',
  type: 'percentage' as const,
  basis_points: 2000,
  duration: 'once' as const,
};

describe('priceLabel', () => {
  it.each([
    [fixedPrice('p', 2500), null, '$25.00'],
    [fixedPrice('p', 2500), 'month' as const, '$25.00 / month'],
    [customPrice('p'), null, 'Pay what you want'],
  ])('%j %s → %s', (price, interval, expected) => {
    expect(priceLabel(price, interval)).toBe(expected);
  });
});

describe('availableProducts', () => {
  it('leaves out archived products and products without a price on sale', () => {
    const archived = product('Old', (id) => [fixedPrice(id, 100)], { is_archived: true });
    const noPrice = product('Gone', (id) => [fixedPrice(id, 100, { is_archived: true })]);
    const live = product('Live', (id) => [fixedPrice(id, 100)]);
    expect(availableProducts({ products: [archived, noPrice, live] }).map((p) => p.name)).toEqual(['Live']);
  });
});

describe('discounts', () => {
  it('words the discount and how long it lasts', () => {
    expect(discountLabel(percent)).toBe('20% off');
    expect(discountLabel({ ...percent, type: 'fixed', amount: 500, currency: 'usd' } as never)).toBe('$5.00 off');
    expect(discountDurationWords(percent, null)).toBeNull();
    expect(discountDurationWords(percent, 'month')).toBe('Applies to the first payment only.');
    expect(discountDurationWords({ ...percent, duration: 'repeating', duration_in_months: 3 }, 'month')).toBe(
      'Applies for 3 months.',
    );
  });
});

describe('orderSummary', () => {
  it('shows the subtotal, taxes to come and the total of a one-time purchase', () => {
    expect(orderSummary(checkoutFixture())).toEqual({
      lines: [
        { label: 'Subtotal', value: '$25.00' },
        { label: 'Taxes', value: 'Calculated from your billing address' },
      ],
      total: { label: 'Total', value: '$25.00' },
      renewal: null,
      trial: null,
    });
  });

  it('shows the tax once the billing address gives it, added or included in the price', () => {
    const added = orderSummary(
      checkoutFixture({ amount: 1000, net_amount: 1000, tax_amount: 200, total_amount: 1200 }),
    );
    expect(added.lines).toContainEqual({ label: 'Taxes', value: '$2.00' });
    expect(added.total).toEqual({ label: 'Total', value: '$12.00' });
    const included = orderSummary(
      checkoutFixture({ amount: 1000, net_amount: 833, tax_amount: 167, total_amount: 1000 }),
    );
    expect(included.lines).toContainEqual({ label: 'Taxes (included)', value: '$1.67' });
    expect(included.total).toEqual({ label: 'Total', value: '$10.00' });
  });

  it('shows the discount and the net as the API computed them', () => {
    const summary = orderSummary(
      checkoutFixture({
        amount: 2500,
        discount: percent,
        discount_amount: 500,
        net_amount: 2000,
        tax_amount: 0,
        total_amount: 2000,
      }),
    );
    expect(summary.lines).toEqual([
      { label: 'Subtotal', value: '$25.00' },
      { label: 'Discount (LAUNCH20)', value: '−$5.00', credit: true },
      { label: 'Net', value: '$20.00' },
      { label: 'Taxes', value: '$0.00' },
    ]);
    expect(summary.total).toEqual({ label: 'Total', value: '$20.00' });
  });

  it('shows a subscription per interval, and what it costs once a discount ends', () => {
    const plain = checkoutFixture({ product: monthly, product_price: monthly.prices[0]!, tax_amount: 0 });
    expect(orderSummary(plain).total).toEqual({ label: 'Total', value: '$25.00 / month' });
    const discounted = orderSummary({
      ...plain,
      discount: percent,
      discount_amount: 500,
      net_amount: 2000,
      total_amount: 2000,
    });
    expect(discounted.total).toEqual({ label: 'Total due today', value: '$20.00' });
    expect(discounted.renewal).toBe('Then $25.00 / month before taxes.');
  });
});

describe('a free trial', () => {
  const trial = {
    product: monthly,
    product_price: monthly.prices[0]!,
    amount: 1200,
    net_amount: 1200,
    tax_amount: 0,
    total_amount: 1200,
    is_payment_required: false,
    is_payment_setup_required: true,
    active_trial_interval: 'day' as const,
    active_trial_interval_count: 14,
  };

  it('says it is free for its length, then what the first period costs, and nothing is due today', () => {
    const summary = orderSummary(checkoutFixture(trial));
    expect(summary.trial).toBe('Free for 14 days, then $12.00 / month');
    expect(summary.total).toEqual({ label: 'Total due today', value: '$0.00' });
    expect(
      trialWords(checkoutFixture({ ...trial, active_trial_interval: 'month', active_trial_interval_count: 1 })),
    ).toBe('Free for 1 month, then $12.00 / month');
    expect(
      trialWords(checkoutFixture({ ...trial, active_trial_interval: null, active_trial_interval_count: null })),
    ).toBe(null);
  });

  it('says why a buyer who already had the trial gets none', () => {
    expect(trialUnavailableWords(checkoutFixture({ trial_unavailable_reason: 'already_redeemed' }))).toBe(
      'You already had a free trial of this product, so this subscription starts paid today.',
    );
    expect(trialUnavailableWords(checkoutFixture(trial))).toBe(null);
  });

  it('starts the trial instead of paying', () => {
    expect(confirmLabel(checkoutFixture(trial))).toBe('Start trial');
  });

  it('words every length', () => {
    expect(trialLength('week', 2)).toBe('2 weeks');
    expect(trialLength('year', 1)).toBe('1 year');
  });
});

describe('confirmLabel', () => {
  it('says what the button does', () => {
    expect(confirmLabel(checkoutFixture())).toBe('Pay $25.00');
    expect(confirmLabel(checkoutFixture({ total_amount: 0, is_payment_required: false }))).toBe('Get it for free');
    expect(confirmLabel(checkoutFixture({ product: monthly, product_price: monthly.prices[0]! }))).toBe('Subscribe');
  });
});
