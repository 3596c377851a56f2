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
    meters,
    ...rest
  } = subscription;
  // The same usage as the seller sees, the meter reduced to what the customer may know of it.
  return {
    ...rest,
    product,
    meters: meters.map(({ meter, ...usage }) => ({
      ...usage,
      meter: {
        created_at: meter.created_at as string,
        modified_at: (meter.modified_at as string | null | undefined) ?? null,
        id: meter.id,
        name: meter.name,
      },
    })),
  };
}
