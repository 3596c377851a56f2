import { describe, expect, it } from 'vitest';
import { checkoutFixture } from '../testing/fixtures';
import {
  addressErrors,
  addressInput,
  addressRules,
  hasStreetParts,
  billingCountryOptions,
  EMPTY_ADDRESS,
  subdivisionOptions,
} from './address';

const checkout = checkoutFixture();

describe('billingCountryOptions', () => {
  it('names countries, sorted, without those checkouts refuse', () => {
    const options = billingCountryOptions('en');
    expect(options.find((option) => option.value === 'FR')?.label).toBe('France');
    expect(options.map((option) => option.value)).not.toContain('RU');
    const labels = options.map((option) => option.label);
    expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b, 'en')));
  });
});

describe('subdivisionOptions', () => {
  it('offers US states and Canadian provinces as ISO 3166-2 codes', () => {
    expect(subdivisionOptions('US')).toContainEqual({ value: 'US-CA', label: 'California' });
    expect(subdivisionOptions('CA')).toContainEqual({ value: 'CA-QC', label: 'Quebec' });
    expect(subdivisionOptions('FR')).toEqual([]);
  });
});

describe('addressRules', () => {
  it('asks a paying buyer for the country only', () => {
    const rules = addressRules(checkout, { country: 'FR', isBusiness: false });
    expect(rules.shown).toEqual({
      country: true,
      line1: false,
      line2: false,
      postal_code: false,
      city: false,
      state: false,
    });
    expect(rules.required.country).toBe(true);
  });

  it('asks a business for its full address, street included', () => {
    const rules = addressRules(checkout, { country: 'FR', isBusiness: true });
    expect(rules.shown.line1 && rules.shown.city && rules.shown.postal_code).toBe(true);
    expect(rules.required).toMatchObject({ line1: true, city: true, postal_code: true, line2: false, state: false });
  });

  it('asks a US buyer for the full address and the state', () => {
    const rules = addressRules(checkout, { country: 'US', isBusiness: false });
    expect(rules.shown.line1).toBe(true);
    expect(rules.required).toMatchObject({ state: true, line1: false });
  });

  it('shows what the API asks for even before the buyer’s change is saved', () => {
    const fields = { ...checkout.customer_billing_address_fields, line1: true };
    const rules = addressRules(
      { ...checkout, customer_billing_address_fields: fields },
      {
        country: 'FR',
        isBusiness: false,
      },
    );
    expect(rules.shown.line1).toBe(true);
  });

  it('does not need an address on a free checkout', () => {
    const free = { ...checkout, is_payment_form_required: false };
    expect(addressRules(free, { country: '', isBusiness: false }).required.country).toBe(false);
  });
});

describe('addressErrors and addressInput', () => {
  const business = addressRules(checkout, { country: 'FR', isBusiness: true });

  it('names every missing part as the API keys it', () => {
    expect(addressErrors({ ...EMPTY_ADDRESS, country: 'FR', city: 'Paris' }, business)).toEqual({
      'customer_billing_address.line1': 'Enter your street address.',
      'customer_billing_address.postal_code': 'Enter your postal code.',
    });
  });

  it('builds the wire address, hidden and blank parts as null', () => {
    const entry = { ...EMPTY_ADDRESS, country: 'FR', line1: ' 1 rue de Rivoli ', city: 'Paris', postalCode: '75001' };
    expect(addressInput(entry, business)).toEqual({
      country: 'FR',
      line1: '1 rue de Rivoli',
      line2: null,
      postal_code: '75001',
      city: 'Paris',
      state: null,
    });
    const countryOnly = addressRules(checkout, { country: 'FR', isBusiness: false });
    expect(addressInput(entry, countryOnly)).toEqual({
      country: 'FR',
      line1: null,
      line2: null,
      postal_code: null,
      city: null,
      state: null,
    });
    expect(addressInput(EMPTY_ADDRESS, countryOnly)).toBeNull();
  });
});

describe('addressRules once a street-level part is typed', () => {
  it('requires the street address, postal code and city (the API would refuse the payment without them)', () => {
    const typed = addressRules(checkout, { country: 'US', isBusiness: false, streetTyped: true });
    expect(typed.required).toMatchObject({ line1: true, postal_code: true, city: true, line2: false });
    const untyped = addressRules(checkout, { country: 'US', isBusiness: false, streetTyped: false });
    expect(untyped.required).toMatchObject({ line1: false, postal_code: false, city: false });
  });

  it('hasStreetParts: any of street, apartment, postal code or city', () => {
    const empty = { country: 'US', line1: '', line2: '', postalCode: '', city: '', state: 'US-CA' };
    expect(hasStreetParts(empty)).toBe(false);
    expect(hasStreetParts({ ...empty, postalCode: '94105' })).toBe(true);
    expect(hasStreetParts({ ...empty, city: ' ' })).toBe(false);
  });
});
