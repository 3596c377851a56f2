// @vitest-environment happy-dom
import type { CheckoutLink, Discount, Payment, Refund } from '@tessera/sdk';
import { describe, expect, it } from 'vitest';
import { CHECKOUT_LINKS_CSV_COLUMNS } from '../features/checkout-links/components/checkout-links-export';
import { DISCOUNTS_CSV_COLUMNS } from '../features/discounts/components/discounts-export';
import { PAYMENTS_CSV_COLUMNS } from '../features/payments/components/payments-export';
import { REFUNDS_CSV_COLUMNS } from '../features/refunds/components/refunds-export';
import { rowsToCsv } from './csv';

// The exports of the money lists: amounts in major units of their currency, raw statuses, ids kept.
describe('CSV exports of payments, refunds, discounts and checkout links', () => {
  it('payments: a declined card payment in JPY (no minor unit)', () => {
    const payment = {
      id: 'pay_1',
      created_at: '2026-01-15T12:00:00Z',
      status: 'failed',
      method: 'card',
      currency: 'jpy',
      amount: 1500,
      decline_reason: 'card_declined',
      order_id: null,
      checkout_id: 'chk_1',
    } as unknown as Payment;
    expect(rowsToCsv(PAYMENTS_CSV_COLUMNS, [payment]).trimEnd().split('\r\n')).toEqual([
      'ID,Created at,Status,Method,Currency,Amount,Decline reason,Order ID,Checkout ID',
      'pay_1,2026-01-15T12:00:00Z,failed,card,JPY,1500,card_declined,,chk_1',
    ]);
  });

  it('refunds: amount and tax apart', () => {
    const refund = {
      id: 'ref_1',
      created_at: '2026-02-01T00:00:00Z',
      status: 'succeeded',
      reason: 'customer_request',
      currency: 'eur',
      amount: 1000,
      tax_amount: 200,
      order_id: 'ord_1',
      subscription_id: null,
      customer_id: 'cus_1',
    } as unknown as Refund;
    expect(rowsToCsv(REFUNDS_CSV_COLUMNS, [refund]).split('\r\n')[1]).toBe(
      'ref_1,2026-02-01T00:00:00Z,succeeded,customer_request,EUR,10.00,2.00,ord_1,,cus_1',
    );
  });

  it('discounts: a percentage as a percent, a fixed amount in major units, the products by name', () => {
    const common = {
      code: null,
      starts_at: null,
      ends_at: null,
      max_redemptions: 100,
      redemptions_count: 3,
      created_at: '2026-01-01T00:00:00Z',
    };
    const percentage = {
      ...common,
      id: 'dis_1',
      name: 'Launch',
      type: 'percentage',
      basis_points: 1250,
      duration: 'repeating',
      duration_in_months: 3,
      products: [{ name: 'Pro' }, { name: 'Team' }],
    } as unknown as Discount;
    const fixed = {
      ...common,
      id: 'dis_2',
      name: 'Five off',
      type: 'fixed',
      amount: 500,
      currency: 'usd',
      duration: 'once',
      products: [],
    } as unknown as Discount;
    expect(rowsToCsv(DISCOUNTS_CSV_COLUMNS, [percentage, fixed]).trimEnd().split('\r\n').slice(1)).toEqual([
      'dis_1,Launch,,percentage,12.5,,,repeating,3,,,100,3,Pro; Team,2026-01-01T00:00:00Z',
      'dis_2,Five off,,fixed,,USD,5.00,once,,,,100,3,,2026-01-01T00:00:00Z',
    ]);
  });

  it('checkout links: with their visits and conversion', () => {
    const link = {
      id: 'cl_1',
      label: 'Spring',
      url: 'https://billing.example/v1/checkout-links/polar_cl_x/redirect',
      products: [{ name: 'Pro' }],
      discount_id: null,
      stats: { visits: 10, checkouts_started: 4, checkouts_completed: 2, conversion: 0.2 },
      created_at: '2026-03-01T00:00:00Z',
    } as unknown as CheckoutLink;
    expect(rowsToCsv(CHECKOUT_LINKS_CSV_COLUMNS, [link]).split('\r\n')[1]).toBe(
      'cl_1,Spring,https://billing.example/v1/checkout-links/polar_cl_x/redirect,Pro,,10,4,2,0.2,2026-03-01T00:00:00Z',
    );
  });
});
