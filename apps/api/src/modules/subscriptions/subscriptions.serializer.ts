import type { z } from 'zod/v4';
import type { CustomerRow } from '../customers/customers.repository.js';
import { serializeCustomer } from '../customers/customers.serializer.js';
import type { DiscountRow } from '../discounts/discounts.repository.js';
import { serializeDiscountBase } from '../discounts/discounts.serializer.js';
import type { PriceWithMeter } from '../products/products.repository.js';
import { serializePrice, serializeProduct, type ProductBundle } from '../products/products.serializer.js';
import { serializeOrderSubscription } from '../orders/orders.serializer.js';
import type { SubscriptionRow } from './subscriptions.repository.js';
import type { Subscription } from './subscriptions.schemas.js';

export type SubscriptionWire = z.input<typeof Subscription>;

export interface SubscriptionView {
  row: SubscriptionRow;
  customer: CustomerRow;
  /** The product as it is now (full Product). */
  product: ProductBundle;
  discount: DiscountRow | null;
  /** The snapshotted prices (archived ones included), in order. */
  prices: PriceWithMeter[];
  /** Usage of the metered prices in the current period (billing.usage.ts `subscriptionMeters`). */
  meters: SubscriptionWire['meters'];
}

export function serializeSubscription(view: SubscriptionView): SubscriptionWire {
  const { row } = view;
  return {
    // The subscription's own fields are those an order embeds.
    ...serializeOrderSubscription(row),
    custom_field_data: (row.custom_field_data ?? {}) as SubscriptionWire['custom_field_data'],
    customer: serializeCustomer(view.customer),
    product: serializeProduct(view.product),
    discount: view.discount ? serializeDiscountBase(view.discount) : null,
    prices: view.prices.map((price) => serializePrice(price, view.product.product)),
    meters: view.meters,
  };
}
