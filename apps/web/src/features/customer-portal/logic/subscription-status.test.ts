import type { CustomerProduct } from '@tessera/sdk';
import { describe, expect, it } from 'vitest';
import { describeRenewal, planOptions, planPriceWords } from './subscription-status';

const live = {
  status: 'active' as const,
  cancel_at_period_end: false,
  ends_at: null as string | null,
  ended_at: null as string | null,
  current_period_end: '2026-02-15T12:00:00.000Z' as string | null,
  trial_end: null as string | null,
  amount: 1200,
  currency: 'usd',
  recurring_interval: 'month' as const,
};
const canceling = { ...live, cancel_at_period_end: true, ends_at: '2026-02-15T12:00:00.000Z' };
const ended = { ...live, status: 'canceled' as const, ended_at: '2026-01-20T12:00:00.000Z' };

describe('describeRenewal', () => {
  it('says when it renews, ends or ended', () => {
    expect(describeRenewal(live)).toMatch(/^Renews on .*2026\.$/);
    expect(describeRenewal(canceling)).toMatch(/^Canceled: you keep access until .*2026, and it will not renew\.$/);
    expect(describeRenewal(ended)).toMatch(/^Ended on /);
  });

  it('says when a free trial ends and what is charged then, or that nothing is once canceled', () => {
    const trial = { ...live, status: 'trialing' as const, trial_end: '2026-01-29T12:00:00.000Z' };
    expect(describeRenewal(trial)).toMatch(/^Free trial until .*2026, then \$12\.00 \/ month\.$/);
    expect(describeRenewal({ ...trial, cancel_at_period_end: true, ends_at: trial.trial_end })).toMatch(
      /^Canceled: your free trial ends on .*2026, and nothing will be charged\.$/,
    );
  });
});

function product(id: string, overrides: Partial<CustomerProduct> = {}): CustomerProduct {
  return {
    created_at: '2026-01-01T00:00:00.000Z',
    modified_at: null,
    id,
    name: `Plan ${id}`,
    description: null,
    recurring_interval: 'month',
    is_recurring: true,
    is_archived: false,
    organization_id: 'org',
    prices: [
      {
        created_at: '2026-01-01T00:00:00.000Z',
        modified_at: null,
        id: `price-${id}`,
        amount_type: 'fixed',
        is_archived: false,
        product_id: id,
        type: 'recurring',
        recurring_interval: 'month',
        price_currency: 'usd',
        price_amount: 2500,
      },
    ],
    benefits: [],
    medias: [],
    ...overrides,
  } as CustomerProduct;
}

describe('planOptions', () => {
  const settings = (allow: boolean) => ({
    subscription_settings: {
      allow_customer_updates: allow,
      allow_multiple_subscriptions: false,
      proration_behavior: 'prorate' as const,
      benefit_revocation_grace_period: 0,
      prevent_trial_abuse: false,
    },
  });
  const current = product('a');
  const other = product('b');
  const oneTime = product('c', { is_recurring: false, recurring_interval: null });
  const archived = product('d', { is_archived: true });
  const payWhatYouWant = product('e', {
    prices: [{ ...current.prices[0]!, amount_type: 'custom' } as unknown as CustomerProduct['prices'][number]],
  });
  const all = [current, other, oneTime, archived, payWhatYouWant];

  it('lists the other live recurring plans with a set price', () => {
    expect(planOptions(settings(true), all, 'a').map((plan) => plan.id)).toEqual(['b']);
  });

  it('lists none when the organization does not let customers change plans', () => {
    expect(planOptions(settings(false), all, 'a')).toEqual([]);
  });

  it('words a plan’s price per interval', () => {
    expect(planPriceWords(other)).toBe('$25.00 / month');
  });
});
