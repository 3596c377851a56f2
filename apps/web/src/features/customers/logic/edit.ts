import type { Customer, CustomerUpdate } from '@tessera/sdk';
import {
  ADDRESS_ENTRY_FIELDS,
  addressEntryOf,
  billingAddressOf,
  orNull,
  type AddressEntry,
} from '../../../lib/address-entry';

/**
 * The seller's customer form: the customer as text fields, and back to a PATCH body holding only what
 * changed (the API changes only the keys it is sent). Metadata is one `key: value` per line; a value
 * left as it was keeps its type (number, boolean), an edited or new one is a string.
 */
export interface CustomerEntry extends AddressEntry {
  name: string;
  email: string;
  metadata: string;
}

type MetadataValue = string | number | boolean;

export function metadataText(metadata: Record<string, MetadataValue>): string {
  return Object.entries(metadata)
    .map(([key, value]) => `${key}: ${String(value)}`)
    .join('\n');
}

/** The metadata the text says, or the line numbers (1-based) that are not `key: value`. */
export function parseMetadata(
  text: string,
  before: Record<string, MetadataValue>,
): { metadata: Record<string, MetadataValue> } | { badLines: number[] } {
  const metadata: Record<string, MetadataValue> = {};
  const badLines: number[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const colon = line.indexOf(':');
    const key = colon > 0 ? line.slice(0, colon).trim() : '';
    if (!key) {
      badLines.push(index + 1);
      return;
    }
    const value = line.slice(colon + 1).trim();
    const old = before[key];
    metadata[key] = old !== undefined && String(old) === value ? old : value;
  });
  return badLines.length > 0 ? { badLines } : { metadata };
}

export function customerEntryOf(customer: Customer): CustomerEntry {
  return {
    name: customer.name ?? '',
    email: customer.email,
    ...addressEntryOf(customer.billing_address),
    metadata: metadataText(customer.metadata as Record<string, MetadataValue>),
  };
}

/** The PATCH body (only what differs from the customer as loaded), or the metadata lines to fix. */
export function customerUpdateOf(
  entry: CustomerEntry,
  customer: Customer,
): { body: CustomerUpdate } | { badMetadataLines: number[] } {
  const before = customerEntryOf(customer);
  const changed = (field: keyof CustomerEntry) => entry[field].trim() !== before[field].trim();
  const body: CustomerUpdate = {};
  if (changed('name')) body.name = orNull(entry.name);
  if (changed('email')) body.email = entry.email.trim();
  if (ADDRESS_ENTRY_FIELDS.some(changed)) body.billing_address = billingAddressOf(entry);
  if (changed('metadata')) {
    const parsed = parseMetadata(entry.metadata, customer.metadata as Record<string, MetadataValue>);
    if ('badLines' in parsed) return { badMetadataLines: parsed.badLines };
    body.metadata = parsed.metadata;
  }
  return { body };
}
