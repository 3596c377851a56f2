import type { z } from 'zod/v4';
import type { Metadata } from '../../platform/http/metadata.js';
import { iso } from '../../platform/http/schemas.js';
import type { CustomerRow } from '../customers/customers.repository.js';
import { serializeCustomer } from '../customers/customers.serializer.js';
import type { DiscountRow } from '../discounts/discounts.repository.js';
import { serializeDiscountBase } from '../discounts/discounts.serializer.js';
import type { PriceWithMeter } from '../products/products.repository.js';
import { serializePrice, serializeProduct, type ProductBundle } from '../products/products.serializer.js';
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
}

export function serializeSubscription(view: SubscriptionView): SubscriptionWire {
  const { row } = view;
  return {
    created_at: iso(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    amount: row.amount,
    currency: row.currency,
    recurring_interval: row.recurring_interval,
    status: row.status,
    current_period_start: iso(row.current_period_start),
    current_period_end: iso(row.current_period_end),
    cancel_at_period_end: row.cancel_at_period_end,
    canceled_at: iso(row.canceled_at),
    started_at: iso(row.started_at),
    ends_at: iso(row.ends_at),
    ended_at: iso(row.ended_at),
    customer_id: row.customer_id,
    product_id: row.product_id,
    discount_id: row.discount_id,
    checkout_id: row.checkout_id,
    customer_cancellation_reason: row.customer_cancellation_reason as SubscriptionWire['customer_cancellation_reason'],
    customer_cancellation_comment: row.customer_cancellation_comment,
    metadata: (row.metadata ?? {}) as Metadata,
    custom_field_data: (row.custom_field_data ?? {}) as SubscriptionWire['custom_field_data'],
    customer: serializeCustomer(view.customer),
    product: serializeProduct(view.product),
    discount: view.discount ? serializeDiscountBase(view.discount) : null,
    prices: view.prices.map((price) => serializePrice(price, view.product.product)),
    // Meters join in with the usage-based billing module.
    meters: [],
  };
}
