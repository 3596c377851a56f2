import type { CustomerPortalCustomer, CustomerPortalCustomerUpdate } from '@tessera/sdk';

/**
 * The profile form: the customer as text fields, and back to a PATCH body holding only what changed
 * (the API changes only the keys it is sent, and re-checks a tax id only when one is sent).
 */

export interface ProfileEntry {
  name: string;
  email: string;
  /** '' while no country is chosen: then there is no billing address. */
  country: string;
  line1: string;
  line2: string;
  postalCode: string;
  city: string;
  state: string;
  taxId: string;
}

export function profileEntryOf(customer: CustomerPortalCustomer): ProfileEntry {
  const address = customer.billing_address;
  return {
    name: customer.name ?? '',
    email: customer.email,
    country: address?.country ?? '',
    line1: address?.line1 ?? '',
    line2: address?.line2 ?? '',
    postalCode: address?.postal_code ?? '',
    city: address?.city ?? '',
    state: address?.state ?? '',
    taxId: customer.tax_id?.[0] ?? '',
  };
}

const ADDRESS_FIELDS = ['country', 'line1', 'line2', 'postalCode', 'city', 'state'] as const;

const orNull = (text: string) => text.trim() || null;

/** The PATCH body: only the fields that differ from the customer as loaded. */
export function profileUpdateOf(entry: ProfileEntry, customer: CustomerPortalCustomer): CustomerPortalCustomerUpdate {
  const before = profileEntryOf(customer);
  const changed = (field: keyof ProfileEntry) => entry[field].trim() !== before[field].trim();
  const body: CustomerPortalCustomerUpdate = {};
  if (changed('name')) body.name = orNull(entry.name);
  if (changed('email')) body.email = entry.email.trim();
  if (ADDRESS_FIELDS.some(changed))
    body.billing_address = entry.country
      ? {
          country: entry.country,
          line1: orNull(entry.line1),
          line2: orNull(entry.line2),
          postal_code: orNull(entry.postalCode),
          city: orNull(entry.city),
          state: orNull(entry.state),
        }
      : null;
  if (changed('taxId')) body.tax_id = orNull(entry.taxId);
  return body;
}
