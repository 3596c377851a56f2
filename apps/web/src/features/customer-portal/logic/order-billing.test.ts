import { describe, expect, it } from 'vitest';
import { orderBillingEntryOf, orderBillingUpdateOf } from './order-billing';

describe('order billing details', () => {
  it('shows the stored details as fields (US-NY as NY) and sends them back whole', () => {
    const entry = orderBillingEntryOf({
      billing_name: 'Ada',
      billing_address: {
        line1: '1 Main St',
        line2: null,
        postal_code: '10001',
        city: 'New York',
        state: 'US-NY',
        country: 'US',
      },
    });
    expect(entry).toEqual({
      name: 'Ada',
      country: 'US',
      line1: '1 Main St',
      line2: '',
      postalCode: '10001',
      city: 'New York',
      state: 'NY',
    });
    expect(orderBillingUpdateOf(entry)).toEqual({
      billing_name: 'Ada',
      billing_address: {
        country: 'US',
        line1: '1 Main St',
        line2: null,
        postal_code: '10001',
        city: 'New York',
        state: 'NY',
      },
    });
  });

  it('sends null for an empty name and no country', () => {
    const entry = orderBillingEntryOf({ billing_name: null, billing_address: null });
    expect(orderBillingUpdateOf({ ...entry, name: '  ' })).toEqual({ billing_name: null, billing_address: null });
  });
});
