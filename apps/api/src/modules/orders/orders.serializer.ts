import { dueAmount } from '../billing/billing.money.js';
import type { z } from 'zod/v4';
import { serializeAddress } from '../../platform/http/countries.js';
import type { Metadata } from '../../platform/http/metadata.js';
import { iso } from '../../platform/http/schemas.js';
import type { CustomerRow } from '../customers/customers.repository.js';
import { serializeCustomer } from '../customers/customers.serializer.js';
import type { DiscountRow } from '../discounts/discounts.repository.js';
import { serializeDiscountBase } from '../discounts/discounts.serializer.js';
import type { ProductRow } from '../products/products.repository.js';
import { serializeOrderProduct } from '../products/products.serializer.js';
import type { OrderItemRow, OrderRow } from './orders.repository.js';
import type { SubscriptionRow } from '../subscriptions/subscriptions.repository.js';
import type { Order, OrderItemSchema, OrderSubscription } from './orders.schemas.js';

export type OrderWire = z.input<typeof Order>;
export type OrderItemWire = z.input<typeof OrderItemSchema>;
export type OrderSubscriptionWire = z.input<typeof OrderSubscription>;

/** What an order's wire shape embeds. `subscription` is given by the subscriptions module when it has one. */
export interface OrderBundle {
  order: OrderRow;
  items: OrderItemRow[];
  customer: CustomerRow;
  product: ProductRow;
  discount: DiscountRow | null;
  subscription?: OrderSubscriptionWire | null;
}

const PAID_STATUSES = new Set(['paid', 'refunded', 'partially_refunded']);

export function isPaidStatus(status: string): boolean {
  return PAID_STATUSES.has(status);
}

/** `{PREFIX}-{n:04d}`, as the reference numbers customer invoices (`ACME-0001`, …, `ACME-12345`). */
export function formatInvoiceNumber(prefix: string, sequence: number): string {
  return `${prefix}-${String(sequence).padStart(4, '0')}`;
}

export function serializeOrderItem(row: OrderItemRow): OrderItemWire {
  return {
    created_at: iso(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    label: row.label,
    amount: row.amount,
    tax_amount: row.tax_amount,
    proration: row.proration,
    product_price_id: row.product_price_id,
  };
}

export function serializeOrder(bundle: OrderBundle): OrderWire {
  const { order } = bundle;
  return {
    id: order.id,
    created_at: iso(order.created_at),
    modified_at: iso(order.modified_at),
    status: order.status,
    paid: isPaidStatus(order.status),
    subtotal_amount: order.subtotal_amount,
    discount_amount: order.discount_amount,
    net_amount: order.net_amount,
    amount: order.net_amount,
    tax_amount: order.tax_amount,
    total_amount: order.total_amount,
    refunded_amount: order.refunded_amount,
    refunded_tax_amount: order.refunded_tax_amount,
    applied_balance_amount: order.applied_balance_amount,
    due_amount: dueAmount(order),
    currency: order.currency,
    billing_reason: order.billing_reason,
    billing_name: order.billing_name,
    billing_address: serializeAddress(order.billing_address),
    is_invoice_generated: order.invoice_path !== null,
    customer_id: order.customer_id,
    product_id: order.product_id,
    discount_id: order.discount_id,
    subscription_id: order.subscription_id,
    checkout_id: order.checkout_id,
    metadata: (order.metadata ?? {}) as Metadata,
    custom_field_data: (order.custom_field_data ?? {}) as OrderWire['custom_field_data'],
    customer: serializeCustomer(bundle.customer),
    user_id: order.customer_id,
    product: serializeOrderProduct(bundle.product),
    discount: bundle.discount ? serializeDiscountBase(bundle.discount) : null,
    subscription: bundle.subscription ?? null,
    items: bundle.items.map(serializeOrderItem),
  };
}

/** A subscription as an order embeds it: its own fields, without customer, product or prices. */
export function serializeOrderSubscription(row: SubscriptionRow): OrderSubscriptionWire {
  return {
    metadata: (row.metadata ?? {}) as Metadata,
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
    customer_cancellation_reason:
      row.customer_cancellation_reason as OrderSubscriptionWire['customer_cancellation_reason'],
    customer_cancellation_comment: row.customer_cancellation_comment,
    trial_start: iso(row.trial_start),
    trial_end: iso(row.trial_end),
  };
}
