import type { Customer } from '@tessera/sdk';
import { describe, expect, it } from 'vitest';
import { customerEntryOf, customerUpdateOf, parseMetadata } from './edit';

const customer = {
  id: 'c1',
  email: 'ada@example.com',
  name: 'Ada',
  billing_address: { country: 'US', line1: '1 Main St', line2: null, postal_code: '94107', city: 'SF', state: 'US-CA' },
  metadata: { plan: 'gold', seats: 3, vip: true },
} as unknown as Customer;

describe('customerUpdateOf', () => {
  it('sends nothing when nothing changed', () => {
    expect(customerUpdateOf(customerEntryOf(customer), customer)).toEqual({ body: {} });
  });

  it('sends only the changed fields, a cleared name as null, the whole address when a part changed', () => {
    const entry = { ...customerEntryOf(customer), name: ' ', city: 'Oakland' };
    expect(customerUpdateOf(entry, customer)).toEqual({
      body: {
        name: null,
        billing_address: {
          country: 'US',
          line1: '1 Main St',
          line2: null,
          postal_code: '94107',
          city: 'Oakland',
          state: 'US-CA',
        },
      },
    });
  });

  it('removes the address when the country is emptied', () => {
    const entry = { ...customerEntryOf(customer), country: '' };
    expect(customerUpdateOf(entry, customer)).toEqual({ body: { billing_address: null } });
  });
});

describe('parseMetadata', () => {
  const before = { plan: 'gold', seats: 3, vip: true };
  it.each([
    ['plan: gold\nseats: 3\nvip: true', { metadata: before }],
    ['plan: silver\nseats: 4', { metadata: { plan: 'silver', seats: '4' } }],
    ['url: https://a.example:8080/x', { metadata: { url: 'https://a.example:8080/x' } }],
    ['\n\n', { metadata: {} }],
    ['plan gold\n: x\nok: 1', { badLines: [1, 2] }],
  ])('%j', (text, expected) => {
    expect(parseMetadata(text, before)).toEqual(expected);
  });
});
