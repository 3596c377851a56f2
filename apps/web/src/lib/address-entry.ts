import type { Address } from '@tessera/sdk';

/**
 * A billing address as the text fields of a form (the seller's customer form, the portal profile), and
 * back to the API's address. '' while no country is chosen: then there is no billing address.
 */
export interface AddressEntry {
  country: string;
  line1: string;
  line2: string;
  postalCode: string;
  city: string;
  state: string;
}

export const ADDRESS_ENTRY_FIELDS = ['country', 'line1', 'line2', 'postalCode', 'city', 'state'] as const;

/** A field's text, or null when it holds only blanks. */
export const orNull = (text: string) => text.trim() || null;

export function addressEntryOf(address: Address | null | undefined): AddressEntry {
  return {
    country: address?.country ?? '',
    line1: address?.line1 ?? '',
    line2: address?.line2 ?? '',
    postalCode: address?.postal_code ?? '',
    city: address?.city ?? '',
    state: address?.state ?? '',
  };
}

/** The address to send: null without a country. */
export function billingAddressOf(entry: AddressEntry) {
  return entry.country
    ? {
        country: entry.country,
        line1: orNull(entry.line1),
        line2: orNull(entry.line2),
        postal_code: orNull(entry.postalCode),
        city: orNull(entry.city),
        state: orNull(entry.state),
      }
    : null;
}
