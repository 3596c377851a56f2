import { describe, expect, it } from 'vitest';
import { csvLine } from '../../platform/http/csv.js';
import { CUSTOMER_EXPORT_HEADER, customerExportCells } from './customers.export.js';

describe('customerExportCells', () => {
  const base = {
    id: '00000000-0000-4000-8000-000000000001',
    external_id: null,
    created_at: new Date('2026-02-03T04:05:06.789Z'),
    email: 'ada@example.com',
    name: null,
    tax_id: null,
    billing_address: null,
    metadata: {},
  };

  it('writes the reference header', () => {
    expect(csvLine(CUSTOMER_EXPORT_HEADER)).toBe(
      'ID,External ID,Created At,Email,Name,Tax ID,Billing Address Line 1,Billing Address Line 2,' +
        'Billing Address City,Billing Address State,Billing Address Zip,Billing Address Country,Metadata\r\n',
    );
  });

  it('leaves what a customer lacks empty', () => {
    expect(csvLine(customerExportCells(base))).toBe(
      '00000000-0000-4000-8000-000000000001,,2026-02-03T04:05:06.789000+00:00,ada@example.com,,,,,,,,,\r\n',
    );
  });

  it('writes the address, the tax id value and the metadata as JSON', () => {
    const cells = customerExportCells({
      ...base,
      external_id: 'u-1',
      name: 'Ada Lovelace',
      tax_id: ['FR40303265045', 'eu_vat'],
      billing_address: {
        line1: '1 Rue X',
        line2: null,
        city: 'Paris',
        state: null,
        postal_code: '75001',
        country: 'FR',
      },
      metadata: { plan: 'pro', seats: 3 },
    });
    expect(csvLine(cells)).toBe(
      '00000000-0000-4000-8000-000000000001,u-1,2026-02-03T04:05:06.789000+00:00,ada@example.com,Ada Lovelace,' +
        'FR40303265045,1 Rue X,,Paris,,75001,FR,"{""plan"": ""pro"", ""seats"": 3}"\r\n',
    );
  });
});
