import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  creditBalanceOf,
  customerAvatarUrl,
  serializeCustomer,
  serializeCustomerState,
} from './customers.serializer.js';
import type { CustomerRow } from './customers.repository.js';

const row: CustomerRow = {
  id: '6b1f5b8e-0f7a-4c1e-9d7e-1f2a3b4c5d6e',
  created_at: new Date('2026-01-15T12:00:00Z'),
  modified_at: null,
  deleted_at: null,
  organization_id: '0e3c7f1a-2b4d-4e6f-8a9b-0c1d2e3f4a5b',
  email: 'Jane@Example.com',
  email_verified: false,
  name: null,
  external_id: null,
  billing_address: { country: 'FR' },
  tax_id: ['FR12345678901', 'eu_vat'],
  metadata: { a: 1 },
  credit_balances: {},
};

describe('customer serializer', () => {
  it('derives the Gravatar URL from the lower-cased email, without fetching anything', () => {
    const hash = createHash('sha256').update('jane@example.com').digest('hex');
    expect(customerAvatarUrl('Jane@Example.com')).toBe(`https://www.gravatar.com/avatar/${hash}?d=blank`);
  });

  it('sends every key, null where absent', () => {
    expect(serializeCustomer(row)).toEqual({
      id: row.id,
      created_at: '2026-01-15T12:00:00.000Z',
      modified_at: null,
      metadata: { a: 1 },
      external_id: null,
      email: 'Jane@Example.com',
      email_verified: false,
      type: 'individual',
      name: null,
      billing_name: null,
      billing_address: { line1: null, line2: null, postal_code: null, city: null, state: null, country: 'FR' },
      tax_id: ['FR12345678901', 'eu_vat'],
      organization_id: row.organization_id,
      deleted_at: null,
      avatar_url: customerAvatarUrl('jane@example.com'),
      credit_balance: 0,
      credit_balances: {},
    });
    expect(serializeCustomerState(row)).toMatchObject({
      active_subscriptions: [],
      granted_benefits: [],
      active_meters: [],
    });
  });

  it.each([
    [{}, 0],
    [{ eur: 996 }, 996],
    [{ usd: 50, eur: 996 }, 50],
    [{ gbp: 1, eur: 2 }, 0],
  ])('shows the credit balance %j as %i', (balances, shown) => {
    expect(creditBalanceOf({ credit_balances: balances })).toEqual({
      credit_balance: shown,
      credit_balances: balances,
    });
  });
});
