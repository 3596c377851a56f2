import type { CustomerPortalCustomer } from '@tessera/sdk';
import { describe, expect, it } from 'vitest';
import { profileEntryOf, profileUpdateOf } from './profile';

const customer: CustomerPortalCustomer = {
  created_at: '2026-01-05T10:00:00.000Z',
  modified_at: null,
  id: '0f7f2a4e-3c1b-4d7e-9a55-6a4b7d0b7a11',
  email: 'ada@example.com',
  email_verified: true,
  name: 'Ada',
  billing_address: {
    line1: '1 rue de Rivoli',
    line2: null,
    postal_code: '75001',
    city: 'Paris',
    state: null,
    country: 'FR',
  },
  tax_id: ['FR40303265045', 'eu_vat'],
  oauth_accounts: {},
  credit_balance: 0,
  credit_balances: {},
};

describe('profileUpdateOf', () => {
  it('sends nothing when nothing changed', () => {
    expect(profileUpdateOf(profileEntryOf(customer), customer)).toEqual({});
  });

  it('sends only the changed fields, blanks as null', () => {
    const entry = { ...profileEntryOf(customer), name: '  ', taxId: '' };
    expect(profileUpdateOf(entry, customer)).toEqual({ name: null, tax_id: null });
  });

  it('sends the whole address when a part of it changed', () => {
    const entry = { ...profileEntryOf(customer), city: 'Lyon', postalCode: '69001' };
    expect(profileUpdateOf(entry, customer)).toEqual({
      billing_address: {
        country: 'FR',
        line1: '1 rue de Rivoli',
        line2: null,
        postal_code: '69001',
        city: 'Lyon',
        state: null,
      },
    });
  });

  it('removes the address when no country is chosen', () => {
    expect(profileUpdateOf({ ...profileEntryOf(customer), country: '' }, customer)).toEqual({ billing_address: null });
  });
});
