import type { z } from 'zod/v4';
import type { SubscriptionWire } from '../../subscriptions/subscriptions.serializer.js';
import type { CustomerProductWithOrganizationWire } from '../customer-portal.serializer.js';
import type { CustomerSubscription } from './subscriptions.schemas.js';

export type CustomerSubscriptionWire = z.input<typeof CustomerSubscription>;

/**
 * The seller's wire subscription (one copy of its fields and price snapshot), less what only the
 * seller sees, with the product as the customer sees it.
 */
export function serializeCustomerSubscription(
  subscription: SubscriptionWire,
  product: CustomerProductWithOrganizationWire,
): CustomerSubscriptionWire {
  const {
    metadata: _metadata,
    custom_field_data: _customFieldData,
    customer: _customer,
    discount: _discount,
    product: _product,
    meters: _meters,
    ...rest
  } = subscription;
  // Usage meters join in with the meters module, on the seller's side and here alike.
  return { ...rest, product, meters: [] };
}
