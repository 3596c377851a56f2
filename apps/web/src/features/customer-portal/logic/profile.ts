import type { CustomerPortalCustomer, CustomerPortalCustomerUpdate } from '@tessera/sdk';
import {
  ADDRESS_ENTRY_FIELDS,
  addressEntryOf,
  billingAddressOf,
  orNull,
  type AddressEntry,
} from '../../../lib/address-entry';

/**
 * The profile form: the customer as text fields, and back to a PATCH body holding only what changed
 * (the API changes only the keys it is sent, and re-checks a tax id only when one is sent).
 */

export interface ProfileEntry extends AddressEntry {
  name: string;
  email: string;
  taxId: string;
}

export function profileEntryOf(customer: CustomerPortalCustomer): ProfileEntry {
  return {
    name: customer.name ?? '',
    email: customer.email,
    ...addressEntryOf(customer.billing_address),
    taxId: customer.tax_id?.[0] ?? '',
  };
}

/** The PATCH body: only the fields that differ from the customer as loaded. */
export function profileUpdateOf(entry: ProfileEntry, customer: CustomerPortalCustomer): CustomerPortalCustomerUpdate {
  const before = profileEntryOf(customer);
  const changed = (field: keyof ProfileEntry) => entry[field].trim() !== before[field].trim();
  const body: CustomerPortalCustomerUpdate = {};
  if (changed('name')) body.name = orNull(entry.name);
  if (changed('email')) body.email = entry.email.trim();
  if (ADDRESS_ENTRY_FIELDS.some(changed)) body.billing_address = billingAddressOf(entry);
  if (changed('taxId')) body.tax_id = orNull(entry.taxId);
  return body;
}
