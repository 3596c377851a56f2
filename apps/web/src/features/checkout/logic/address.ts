import type { AddressInput, CheckoutPublic } from '@tessera/sdk';
import { countryOptions } from '../../../lib/countries';
import { hasSubdivisions } from '../../../lib/subdivisions';

/**
 * The billing address of a checkout: the countries it may be in, the subdivisions the API knows
 * (US states and Canadian provinces, as ISO 3166-2 codes), which parts the form asks for, and the
 * address as the API takes it.
 */

/** Countries checkouts refuse: the form does not offer them. */
const REFUSED_COUNTRIES = ['CU', 'IR', 'KP', 'RU', 'SY'];

export interface Option {
  value: string;
  label: string;
}

/** The countries a checkout may bill to, by their name in the visitor's language. */
export function billingCountryOptions(locale?: string): Option[] {
  return countryOptions(locale, REFUSED_COUNTRIES);
}

export { subdivisionLabel, subdivisionOptions } from '../../../lib/subdivisions';

export interface AddressEntry {
  country: string;
  line1: string;
  line2: string;
  postalCode: string;
  city: string;
  state: string;
}

export const EMPTY_ADDRESS: AddressEntry = { country: '', line1: '', line2: '', postalCode: '', city: '', state: '' };

export function addressEntryOf(address: CheckoutPublic['customer_billing_address']): AddressEntry {
  if (!address) return EMPTY_ADDRESS;
  return {
    country: address.country,
    line1: address.line1 ?? '',
    line2: address.line2 ?? '',
    postalCode: address.postal_code ?? '',
    city: address.city ?? '',
    state: address.state ?? '',
  };
}

export type AddressPart = keyof CheckoutPublic['customer_billing_address_fields'];

/** Whether a street-level part (street, apartment, postal code, city) has been typed. */
export function hasStreetParts(entry: AddressEntry): boolean {
  return [entry.line1, entry.line2, entry.postalCode, entry.city].some((part) => part.trim() !== '');
}

export interface AddressRules {
  /** Parts the form shows. */
  shown: Record<AddressPart, boolean>;
  /** Parts the buyer must fill before paying. */
  required: Record<AddressPart, boolean>;
}

/**
 * Which parts to ask for. The API says which parts the checkout wants (`customer_billing_address_fields`),
 * but only after an update: the same rule is applied to what the buyer is typing (a business, or a US
 * address, asks for the full address; a Canadian one for the province) so the fields appear at once.
 * Paying, or buying as a business, needs the address; a required or business address needs its street.
 */
export function addressRules(
  checkout: Pick<
    CheckoutPublic,
    'customer_billing_address_fields' | 'require_billing_address' | 'is_payment_form_required'
  >,
  entry: { country: string; isBusiness: boolean; streetTyped?: boolean },
): AddressRules {
  const full = checkout.require_billing_address || entry.isBusiness || entry.country === 'US';
  const fromApi = checkout.customer_billing_address_fields;
  const withSubdivisions = hasSubdivisions(entry.country);
  const shown: Record<AddressPart, boolean> = {
    country: true,
    line1: fromApi.line1 || full,
    line2: fromApi.line2 || full,
    postal_code: fromApi.postal_code || full,
    city: fromApi.city || full,
    // A state is only asked where there are states to choose or a full address is wanted.
    state: (fromApi.state || full || withSubdivisions) && entry.country !== '',
  };
  // The API wants the whole street address once any street-level part is given (a ZIP code, say): the
  // form says so as soon as it is typed, instead of refusing the payment later.
  const street = checkout.require_billing_address || entry.isBusiness || (entry.streetTyped ?? false);
  const required: Record<AddressPart, boolean> = {
    country: checkout.is_payment_form_required || entry.isBusiness,
    line1: street,
    line2: false,
    postal_code: street,
    city: street,
    state: shown.state && withSubdivisions && (street || entry.country === 'US' || entry.country === 'CA'),
  };
  return { shown, required };
}

const PART_FIELD: Record<AddressPart, keyof AddressEntry> = {
  country: 'country',
  line1: 'line1',
  line2: 'line2',
  postal_code: 'postalCode',
  city: 'city',
  state: 'state',
};

const REQUIRED_MESSAGE: Record<AddressPart, string> = {
  country: 'Choose your country.',
  line1: 'Enter your street address.',
  line2: 'Enter the second address line.',
  postal_code: 'Enter your postal code.',
  city: 'Enter your city.',
  state: 'Choose your state or province.',
};

/** Missing parts, keyed `customer_billing_address.<part>` as the API's errors are. */
export function addressErrors(entry: AddressEntry, rules: AddressRules): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const part of Object.keys(PART_FIELD) as AddressPart[]) {
    if (rules.required[part] && entry[PART_FIELD[part]].trim() === '')
      errors[`customer_billing_address.${part}`] = REQUIRED_MESSAGE[part];
  }
  return errors;
}

/** The address as the API takes it (hidden parts are sent empty); null until a country is chosen. */
export function addressInput(entry: AddressEntry, rules: AddressRules): AddressInput | null {
  if (!entry.country) return null;
  const part = (name: AddressPart) => {
    const value = entry[PART_FIELD[name]].trim();
    return rules.shown[name] && value !== '' ? value : null;
  };
  return {
    country: entry.country,
    line1: part('line1'),
    line2: part('line2'),
    postal_code: part('postal_code'),
    city: part('city'),
    state: part('state'),
  };
}
