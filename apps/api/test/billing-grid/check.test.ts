import { describe, expect, it } from 'vitest';
import { invariants } from './check.js';
import type { Observed, WireOrder, WirePayment } from './driver.js';

const order = (id: string, overrides: Partial<WireOrder> = {}): WireOrder => ({
  id,
  created_at: '2026-02-15T12:00:00.000Z',
  status: 'paid',
  billing_reason: 'subscription_cycle',
  subtotal_amount: 1000,
  discount_amount: 0,
  net_amount: 1000,
  tax_amount: 0,
  total_amount: 1000,
  applied_balance_amount: 0,
  due_amount: 1000,
  product_id: 'p',
  items: [{ label: 'Plan — From Feb 15, 2026 to Mar 15, 2026', amount: 1000, tax_amount: 0, proration: false }],
  ...overrides,
});
const paid = (orderId: string, amount = 1000): WirePayment => ({
  created_at: '2026-02-15T12:00:00.000Z',
  status: 'succeeded',
  amount,
  order_id: orderId,
});
const observed = (orders: WireOrder[], payments: WirePayment[], creditBalance = 0): Observed => ({
  orders,
  payments,
  creditBalance,
  stateCreditBalance: creditBalance,
  plans: {},
  errors: [],
  subscription: {
    id: 's',
    status: 'active',
    current_period_start: '2026-02-15T12:00:00.000Z',
    current_period_end: '2026-03-15T12:00:00.000Z',
    cancel_at_period_end: false,
    ended_at: null,
    product_id: 'p',
    customer_id: 'c',
  },
});
const march = { label: 'Plan — From Mar 15, 2026 to Apr 15, 2026', amount: 1000, tax_amount: 0, proration: false };
const fields = (data: Observed) => invariants(data).map((m) => m.field);

describe('invariants', () => {
  it('hold for two paid renewals charged once each', () => {
    expect(fields(observed([order('a'), order('b', { items: [march] })], [paid('a'), paid('b')]))).toEqual([]);
  });

  it.each([
    [
      'a period billed twice',
      observed([order('a'), order('b')], [paid('a'), paid('b')]),
      'invariant: a period billed once',
    ],
    [
      'a gap between periods',
      observed(
        [order('a'), order('b', { items: [{ ...march, label: 'Plan — From Apr 15, 2026 to May 15, 2026' }] })],
        [paid('a'), paid('b')],
      ),
      'invariant: periods contiguous',
    ],
    [
      'items that do not sum to the subtotal',
      observed([order('a', { subtotal_amount: 1200, net_amount: 1200, total_amount: 1200 })], [paid('a', 1200)]),
      'invariant: order[0] items sum to subtotal',
    ],
    [
      'a charge twice',
      observed([order('a')], [paid('a'), paid('a')]),
      'invariant: order[0] never charged more than it owes',
    ],
    ['a paid order never charged', observed([order('a')], []), 'invariant: order[0] paid = charged + balance used'],
    [
      'a negative charge',
      observed([order('a')], [paid('a'), { ...paid('a', -5), status: 'failed' }]),
      'invariant: no charge ≤ 0',
    ],
    [
      'a credit to the balance that vanished',
      observed(
        [
          order('a', {
            items: [
              { label: 'Plan — From Feb 15, 2026 to Mar 15, 2026', amount: 1000, tax_amount: 0, proration: false },
              {
                label: 'Remaining time — From Feb 20, 2026 to Mar 15, 2026',
                amount: -1300,
                tax_amount: 0,
                proration: true,
              },
              { label: 'Unused credit', amount: 300, tax_amount: 0, proration: true },
            ],
            subtotal_amount: 0,
            net_amount: 0,
            total_amount: 0,
            due_amount: 0,
          }),
        ],
        [],
        0,
      ),
      'invariant: credits created = applied + balance',
    ],
    [
      'a renewal item without its period',
      observed(
        [order('a', { items: [{ label: 'Plan', amount: 1000, tax_amount: 0, proration: false }] })],
        [paid('a')],
      ),
      'invariant: a period item names its period',
    ],
  ])('catch %s', (_name, data, field) => {
    expect(fields(data)).toContain(field);
  });
});
