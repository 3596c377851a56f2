import type { CustomerOrder, CustomerOrderUpdate } from '@tessera/sdk';
import { addressEntryOf, billingAddressOf, orNull, type AddressEntry } from '../../../lib/address-entry';

/**
 * The billing details of an order as text fields, and back to the PATCH body, which always carries
 * both keys (the API requires them, as the reference): an address only when a country is chosen.
 */
export interface OrderBillingEntry extends AddressEntry {
  name: string;
}

export function orderBillingEntryOf(order: Pick<CustomerOrder, 'billing_name' | 'billing_address'>): OrderBillingEntry {
  const entry = addressEntryOf(order.billing_address);
  return {
    name: order.billing_name ?? '',
    ...entry,
    // US-NY is typed and shown as NY; the API takes either.
    state: entry.state.replace(/^(US|CA)-/, ''),
  };
}

export function orderBillingUpdateOf(entry: OrderBillingEntry): CustomerOrderUpdate {
  return { billing_name: orNull(entry.name), billing_address: billingAddressOf(entry) };
}
