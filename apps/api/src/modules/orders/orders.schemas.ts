import { z } from 'zod/v4';
import { Address, AddressInput } from '../../platform/http/countries.js';
import { MetadataOutput } from '../../platform/http/metadata.js';
import { metadataQuery, oneOrList, paginationQuery, sortingQuery } from '../../platform/http/query.js';
import { DateTime, Id, ListResource } from '../../platform/http/schemas.js';
import { Customer } from '../customers/customers.schemas.js';
import { DiscountBase } from '../discounts/discounts.schemas.js';
import { OrderProduct, SubscriptionRecurringInterval } from '../products/products.schemas.js';

export const ORDER_STATUSES = ['pending', 'paid', 'refunded', 'partially_refunded'] as const;
export const ORDER_BILLING_REASONS = [
  'purchase',
  'subscription_create',
  'subscription_cycle',
  'subscription_update',
] as const;

export const OrderStatus = z.enum(ORDER_STATUSES).meta({ id: 'OrderStatus' });
export const OrderBillingReason = z.enum(ORDER_BILLING_REASONS).meta({ id: 'OrderBillingReason' });

export const OrderItemSchema = z
  .object({
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    id: z.uuid(),
    label: z.string(),
    amount: z.int(),
    tax_amount: z.int(),
    proration: z.boolean(),
    product_price_id: z.uuid().nullable(),
  })
  .meta({ id: 'OrderItemSchema' });

export const SUBSCRIPTION_STATUSES = [
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'canceled',
  'unpaid',
] as const;
export const CUSTOMER_CANCELLATION_REASONS = [
  'customer_service',
  'low_quality',
  'missing_features',
  'switched_service',
  'too_complex',
  'too_expensive',
  'unused',
  'other',
] as const;

/** The subscription as an order embeds it (no customer, product, discount, prices, meters). */
export const OrderSubscription = z
  .object({
    metadata: MetadataOutput,
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    id: z.uuid(),
    amount: z.int(),
    currency: z.string(),
    recurring_interval: SubscriptionRecurringInterval,
    status: z.enum(SUBSCRIPTION_STATUSES),
    current_period_start: DateTime(),
    current_period_end: DateTime().nullable(),
    cancel_at_period_end: z.boolean(),
    canceled_at: DateTime().nullable(),
    started_at: DateTime().nullable(),
    ends_at: DateTime().nullable(),
    ended_at: DateTime().nullable(),
    customer_id: z.uuid(),
    product_id: z.uuid(),
    discount_id: z.uuid().nullable(),
    checkout_id: z.uuid().nullable(),
    customer_cancellation_reason: z.enum(CUSTOMER_CANCELLATION_REASONS).nullable(),
    customer_cancellation_comment: z.string().nullable(),
    // The trial (both null: none; docs/trials.md).
    trial_start: DateTime().nullable(),
    trial_end: DateTime().nullable(),
  })
  .meta({ id: 'OrderSubscription' });

export const CustomFieldDataOutput = z.record(
  z.string(),
  z.union([z.string(), z.int(), z.boolean(), DateTime()]).nullable(),
);

export const Order = z
  .object({
    id: z.uuid(),
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    status: OrderStatus,
    paid: z.boolean(),
    subtotal_amount: z.int(),
    discount_amount: z.int(),
    net_amount: z.int(),
    amount: z.int().meta({ deprecated: true, description: 'Deprecated alias of net_amount.' }),
    tax_amount: z.int(),
    total_amount: z.int(),
    refunded_amount: z.int(),
    refunded_tax_amount: z.int(),
    applied_balance_amount: z.int().meta({
      description: "Amount in cents of the total that the customer's credit balance paid.",
    }),
    due_amount: z
      .int()
      .meta({ description: 'Amount in cents charged to the payment method: total − applied balance.' }),
    currency: z.string(),
    billing_reason: OrderBillingReason,
    billing_name: z.string().nullable(),
    billing_address: Address.nullable(),
    is_invoice_generated: z.boolean(),
    customer_id: z.uuid(),
    product_id: z.uuid(),
    discount_id: z.uuid().nullable(),
    subscription_id: z.uuid().nullable(),
    checkout_id: z.uuid().nullable(),
    metadata: MetadataOutput,
    custom_field_data: CustomFieldDataOutput,
    customer: Customer,
    user_id: z.uuid().meta({ deprecated: true, description: 'Deprecated alias of customer_id.' }),
    product: OrderProduct,
    discount: DiscountBase.nullable(),
    subscription: OrderSubscription.nullable(),
    items: z.array(OrderItemSchema),
  })
  .meta({ id: 'Order' });

export const ListResourceOrder = ListResource(Order, 'ListResourceOrder');

/** Both keys are required (nullable), as in the reference of the spec's era. */
export const OrderUpdate = z
  .object({
    billing_name: z.string().trim().max(256).nullable(),
    billing_address: AddressInput.nullable(),
  })
  .meta({ id: 'OrderUpdate' });
export type OrderUpdateInput = z.output<typeof OrderUpdate>;

export const OrderInvoice = z.object({ url: z.string() }).meta({ id: 'OrderInvoice' });

/** A signed link to the order's receipt PDF. */
export const OrderReceipt = z.object({ url: z.string() }).meta({ id: 'OrderReceipt' });

/** `POST /v1/orders/{id}/invoice` answers 202 with an empty JSON object. */
export const InvoiceGenerationAccepted = z.object({}).meta({ id: 'InvoiceGenerationAccepted' });

export const ProductBillingType = z.enum(['one_time', 'recurring']).meta({ id: 'ProductBillingType' });

export const ORDER_SORT_KEYS = [
  'created_at',
  'amount',
  'net_amount',
  'customer',
  'product',
  'discount',
  'subscription',
] as const;

export const OrderListQuery = z.object({
  organization_id: oneOrList(Id()),
  product_id: oneOrList(Id()),
  product_billing_type: oneOrList(ProductBillingType),
  discount_id: oneOrList(Id()),
  customer_id: oneOrList(Id()),
  checkout_id: oneOrList(Id()),
  ...paginationQuery,
  sorting: sortingQuery(ORDER_SORT_KEYS, ['-created_at']),
  metadata: metadataQuery(),
});
export type OrderListParams = z.output<typeof OrderListQuery>;

/** `GET /v1/orders/export`: the reference's filters. */
export const OrderExportQuery = z.object({
  organization_id: oneOrList(Id(), 'Filter by organization ID.'),
  product_id: oneOrList(Id(), 'Filter by product ID.'),
});
export type OrderExportParams = z.output<typeof OrderExportQuery>;
