import type { CustomerOrder, CustomerOrderUpdate } from '@tessera/sdk';

/**
 * The billing details of an order as text fields, and back to the PATCH body, which always carries
 * both keys (the API requires them, as the reference): an address only when a country is chosen.
 */
export interface OrderBillingEntry {
  name: string;
  /** '' while no country is chosen: then the order has no billing address. */
  country: string;
  line1: string;
  line2: string;
  postalCode: string;
  city: string;
  state: string;
}

export function orderBillingEntryOf(order: Pick<CustomerOrder, 'billing_name' | 'billing_address'>): OrderBillingEntry {
  const address = order.billing_address;
  return {
    name: order.billing_name ?? '',
    country: address?.country ?? '',
    line1: address?.line1 ?? '',
    line2: address?.line2 ?? '',
    postalCode: address?.postal_code ?? '',
    city: address?.city ?? '',
    // US-NY is typed and shown as NY; the API takes either.
    state: (address?.state ?? '').replace(/^(US|CA)-/, ''),
  };
}

const orNull = (text: string) => text.trim() || null;

export function orderBillingUpdateOf(entry: OrderBillingEntry): CustomerOrderUpdate {
  return {
    billing_name: orNull(entry.name),
    billing_address: entry.country
      ? {
          country: entry.country,
          line1: orNull(entry.line1),
          line2: orNull(entry.line2),
          postal_code: orNull(entry.postalCode),
          city: orNull(entry.city),
          state: orNull(entry.state),
        }
      : null,
  };
}
