import type { z } from 'zod/v4';
import type { CustomerRow } from '../../customers/customers.repository.js';
import type { OrderItemRow, OrderRow } from '../../orders/orders.repository.js';
import { serializeOrder, serializeOrderSubscription } from '../../orders/orders.serializer.js';
import type { ProductRow } from '../../products/products.repository.js';
import type { SubscriptionRow } from '../../subscriptions/subscriptions.repository.js';
import type { CustomerProductWithOrganizationWire } from '../customer-portal.serializer.js';
import type { CustomerOrder, CustomerOrderSubscription } from './orders.schemas.js';

export type CustomerOrderWire = z.input<typeof CustomerOrder>;
export type CustomerOrderSubscriptionWire = z.input<typeof CustomerOrderSubscription>;

export interface CustomerOrderView {
  order: OrderRow;
  items: OrderItemRow[];
  customer: CustomerRow;
  productRow: ProductRow;
  product: CustomerProductWithOrganizationWire;
  subscription: SubscriptionRow | null;
}

export function serializeCustomerOrderSubscription(row: SubscriptionRow): CustomerOrderSubscriptionWire {
  const { metadata: _metadata, ...subscription } = serializeOrderSubscription(row);
  return subscription;
}

/** The seller's wire order (one copy of its fields), less what only the seller sees. */
export function serializeCustomerOrder(view: CustomerOrderView): CustomerOrderWire {
  const {
    metadata: _metadata,
    custom_field_data: _customFieldData,
    customer: _customer,
    discount: _discount,
    ...order
  } = serializeOrder({
    order: view.order,
    items: view.items,
    customer: view.customer,
    product: view.productRow,
    discount: null,
  });
  return {
    ...order,
    product: view.product,
    subscription: view.subscription ? serializeCustomerOrderSubscription(view.subscription) : null,
  };
}
