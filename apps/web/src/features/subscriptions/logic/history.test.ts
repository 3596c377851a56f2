import type { SubscriptionChange } from '@tessera/sdk';
import { describe, expect, it } from 'vitest';
import { describeSubscriptionChange } from './history';

const change = (patch: Partial<SubscriptionChange>): SubscriptionChange => ({
  id: 'x',
  created_at: '2026-01-01T00:00:00Z',
  subscription_id: 's',
  kind: 'created',
  actor: 'customer',
  details: {},
  ...patch,
});

describe('describeSubscriptionChange', () => {
  it.each([
    [change({}), { title: 'Started', detail: 'by the customer' }],
    [
      change({
        kind: 'canceled',
        actor: 'seller',
        details: { reason: 'too_expensive', comment: 'Budget', ends_at: '2026-02-01T00:00:00Z', at_period_end: true },
      }),
      { title: 'Canceled', detail: 'by the seller · ends Feb 1, 2026 · reason: Too expensive · “Budget”' },
    ],
    [
      change({
        kind: 'product_changed',
        actor: 'seller',
        details: { previous_amount: 1000, amount: 2500, currency: 'usd', recurring_interval: 'month' },
      }),
      { title: 'Plan changed', detail: 'by the seller · $10.00 → $25.00 per month' },
    ],
    [
      change({ kind: 'ended', actor: 'system', details: { cause: 'payment_failed' } }),
      { title: 'Ended', detail: 'automatically · renewal payment retries exhausted' },
    ],
    [
      change({ kind: 'discount_changed', actor: 'seller', details: { discount_id: null } }),
      { title: 'Discount changed', detail: 'by the seller · discount removed' },
    ],
  ])('%#', (input, expected) => {
    expect(describeSubscriptionChange(input)).toEqual(expected);
  });
});
