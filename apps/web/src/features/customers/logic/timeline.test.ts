import type { CustomerTimelineItem } from '@tessera/sdk';
import { describe, expect, it } from 'vitest';
import { describeTimelineItem } from './timeline';

const item = (patch: Partial<CustomerTimelineItem>): CustomerTimelineItem => ({
  id: 'x',
  type: 'order',
  occurred_at: '2026-01-01T00:00:00Z',
  resource_id: 'r',
  status: null,
  amount: null,
  currency: null,
  description: null,
  subscription_id: null,
  details: null,
  ...patch,
});

describe('describeTimelineItem', () => {
  it.each([
    [
      item({ type: 'order', amount: 1200, currency: 'usd', status: 'paid', description: 'subscription_cycle' }),
      { title: 'Order $12.00', detail: 'Renewal · Paid' },
    ],
    [
      item({ type: 'payment', amount: 900, currency: 'usd', status: 'failed', description: 'Your card was declined.' }),
      { title: 'Payment failed: $9.00', detail: 'Your card was declined.' },
    ],
    [
      item({ type: 'refund', amount: 300, currency: 'usd', status: 'succeeded', description: 'customer_request' }),
      { title: 'Refund of $3.00', detail: 'Customer request · Succeeded' },
    ],
    [
      item({
        type: 'subscription_change',
        status: 'canceled',
        details: { reason: 'too_expensive', comment: 'Budget cuts' },
      }),
      { title: 'Subscription canceled', detail: 'Too expensive · “Budget cuts”' },
    ],
    [
      item({ type: 'subscription_change', status: 'uncanceled', details: {} }),
      { title: 'Cancellation withdrawn', detail: null },
    ],
    [
      item({ type: 'benefit_granted', description: 'Discord role' }),
      { title: 'Benefit granted', detail: 'Discord role' },
    ],
    [item({ type: 'email', description: 'Your receipt' }), { title: 'Email sent', detail: 'Your receipt' }],
  ])('%#', (input, expected) => {
    expect(describeTimelineItem(input)).toEqual(expected);
  });
});
