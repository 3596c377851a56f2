import { describe, expect, it } from 'vitest';
import { csvLine } from '../../platform/http/csv.js';
import { SUBSCRIPTION_EXPORT_HEADER, subscriptionExportCells } from './subscriptions.export.js';

describe('subscriptionExportCells', () => {
  it('writes the reference columns of a subscription', () => {
    expect(csvLine(SUBSCRIPTION_EXPORT_HEADER)).toBe(
      'Email,Started At,Product,Amount,Currency,Status,Billing Interval\r\n',
    );
    const cells = subscriptionExportCells({
      customer_email: 'ada@example.com',
      started_at: new Date('2026-02-03T04:05:06Z'),
      product_name: 'Pro',
      amount: 1999,
      currency: 'eur',
      status: 'active',
      recurring_interval: 'month',
    });
    expect(csvLine(cells)).toBe('ada@example.com,2026-02-03T04:05:06+00:00,Pro,19.99,eur,active,month\r\n');
  });
});
