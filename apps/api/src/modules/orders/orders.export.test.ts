import { describe, expect, it } from 'vitest';
import { csvLine } from '../../platform/http/csv.js';
import { ORDER_EXPORT_HEADER, orderExportCells } from './orders.export.js';

describe('orderExportCells', () => {
  it('writes the reference columns of an order', () => {
    expect(csvLine(ORDER_EXPORT_HEADER)).toBe('Email,Created At,Product,Net Amount,Currency,Status,Invoice number\r\n');
    const cells = orderExportCells({
      customer_email: 'ada@example.com',
      created_at: new Date('2026-02-03T04:05:06Z'),
      product_name: 'Pro, yearly',
      net_amount: 12000,
      currency: 'usd',
      status: 'paid',
      invoice_number: 'ACME-0001',
    });
    expect(csvLine(cells)).toBe('ada@example.com,2026-02-03T04:05:06+00:00,"Pro, yearly",120.0,usd,paid,ACME-0001\r\n');
  });
});
