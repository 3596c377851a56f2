import type { OrderItemSchema, ProductPrice } from '@tessera/sdk';
import { describe, expect, it } from 'vitest';
import { formatUnitPrice, meteredLine, shiftDecimal, unitsFromLabel } from './metered-lines';

const METERED = {
  id: 'p-metered',
  amount_type: 'metered_unit',
  price_currency: 'usd',
  unit_amount: '0.15',
  cap_amount: 5000,
  meter_id: 'm1',
  meter: { id: 'm1', name: 'API calls' },
} as ProductPrice;
const FIXED = { id: 'p-fixed', amount_type: 'fixed', price_amount: 1000, price_currency: 'usd' } as ProductPrice;

const item = (label: string, productPriceId: string | null): OrderItemSchema => ({
  id: 'i1',
  created_at: '2026-01-01T00:00:00Z',
  modified_at: null,
  label,
  amount: 150,
  tax_amount: 0,
  proration: false,
  product_price_id: productPriceId,
});

describe('meteredLine', () => {
  it('reads the meter, units, unit price and cap of a metered price’s line', () => {
    expect(meteredLine(item('API calls — (1,000 consumed units) × $0.0015', 'p-metered'), [FIXED, METERED])).toEqual({
      meterId: 'm1',
      meterName: 'API calls',
      units: 1000,
      unitPrice: '0.0015',
      capAmount: 5000,
    });
  });

  it('is null for other lines, and has no units when the label states none', () => {
    expect(meteredLine(item('Pro plan', 'p-fixed'), [FIXED, METERED])).toBeNull();
    expect(meteredLine(item('Pro plan', null), [METERED])).toBeNull();
    expect(meteredLine(item('API calls', 'p-metered'), [METERED])?.units).toBeNull();
  });
});

describe('unitsFromLabel', () => {
  it.each([
    ['API calls — (1234 consumed units) × $0.01', 1234],
    ['Tokens — (1,234.5 consumed units) × $0.01 — Capped at $5.00', 1234.5],
    ['Storage — (1 consumed unit) × $1', 1],
    ['Pro plan', null],
  ])('%s → %s', (label, units) => {
    expect(unitsFromLabel(label)).toBe(units);
  });
});

describe('shiftDecimal', () => {
  it.each([
    ['0.15', -2, '0.0015'],
    ['150', -2, '1.5'],
    ['12.5', -2, '0.125'],
    ['0.000000000001', -2, '0.00000000000001'],
    ['1', 2, '100'],
    ['0', -2, '0'],
    ['100', -2, '1'],
  ])('%s shifted by %s is %s', (value, places, expected) => {
    expect(shiftDecimal(value, places)).toBe(expected);
  });
});

describe('formatUnitPrice', () => {
  it('keeps every decimal of a sub-cent price', () => {
    expect(formatUnitPrice('0.0015', 'usd')).toContain('0.0015');
    expect(formatUnitPrice('1.5', 'usd')).toContain('1.50');
  });
});
