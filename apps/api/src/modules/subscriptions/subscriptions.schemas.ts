import { z } from 'zod/v4';
import { MetadataOutput } from '../../platform/http/metadata.js';
import { metadataQuery, oneOrList, paginationQuery, queryBool, sortingQuery } from '../../platform/http/query.js';
import { DateTime, Id, ListResource } from '../../platform/http/schemas.js';
import { Customer } from '../customers/customers.schemas.js';
import { DiscountBase } from '../discounts/discounts.schemas.js';
import { Product, ProductPrice, SubscriptionRecurringInterval } from '../products/products.schemas.js';

export const SubscriptionStatus = z
  .enum(['incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'canceled', 'unpaid'])
  .meta({ id: 'SubscriptionStatus' });

export const CustomerCancellationReason = z
  .enum([
    'customer_service',
    'low_quality',
    'missing_features',
    'switched_service',
    'too_complex',
    'too_expensive',
    'unused',
    'other',
  ])
  .meta({ id: 'CustomerCancellationReason' });

/** Usage of a meter during the current period (the meters module fills these; empty until then). */
export const SubscriptionMeter = z
  .object({
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    id: z.uuid(),
    consumed_units: z.number(),
    credited_units: z.int(),
    amount: z.int(),
    meter_id: z.uuid(),
    meter: z.object({ id: z.uuid(), name: z.string() }).loose(),
  })
  .meta({ id: 'SubscriptionMeter' });

export const Subscription = z
  .object({
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    id: z.uuid(),
    amount: z.int(),
    currency: z.string(),
    recurring_interval: SubscriptionRecurringInterval,
    status: SubscriptionStatus,
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
    customer_cancellation_reason: CustomerCancellationReason.nullable(),
    customer_cancellation_comment: z.string().nullable(),
    // The trial (both null: none; docs/trials.md).
    trial_start: DateTime().nullable(),
    trial_end: DateTime().nullable(),
    metadata: MetadataOutput,
    custom_field_data: z
      .record(z.string(), z.union([z.string(), z.int(), z.boolean(), DateTime()]).nullable())
      .optional(),
    customer: Customer,
    product: Product,
    discount: DiscountBase.nullable(),
    prices: z.array(ProductPrice),
    meters: z.array(SubscriptionMeter),
  })
  .meta({ id: 'Subscription' });

export const ListResourceSubscription = ListResource(Subscription, 'ListResourceSubscription');

export const SUBSCRIPTION_SORT_KEYS = [
  'customer',
  'status',
  'started_at',
  'current_period_end',
  'amount',
  'product',
  'discount',
] as const;

export const SubscriptionListQuery = z.object({
  organization_id: oneOrList(Id()),
  product_id: oneOrList(Id()),
  customer_id: oneOrList(Id()),
  discount_id: oneOrList(Id()),
  active: queryBool(),
  ...paginationQuery,
  sorting: sortingQuery(SUBSCRIPTION_SORT_KEYS, ['-started_at']),
  metadata: metadataQuery(),
});
export type SubscriptionListParams = z.output<typeof SubscriptionListQuery>;

export const SubscriptionExportQuery = z.object({ organization_id: oneOrList(Id()) });
export type SubscriptionExportParams = z.output<typeof SubscriptionExportQuery>;

export const SubscriptionProrationBehavior = z
  .enum(['invoice', 'prorate'])
  .meta({ id: 'SubscriptionProrationBehavior' });

const cancellation = {
  customer_cancellation_reason: CustomerCancellationReason.nullable().optional(),
  customer_cancellation_comment: z.string().nullable().optional(),
};

export const SubscriptionUpdateProduct = z
  .object({ product_id: Id(), proration_behavior: SubscriptionProrationBehavior.nullable().optional() })
  .meta({ id: 'SubscriptionUpdateProduct' });
export const SubscriptionUpdateDiscount = z
  .object({ discount_id: Id().nullable() })
  .meta({ id: 'SubscriptionUpdateDiscount' });
export const SubscriptionCancel = z
  .object({ ...cancellation, cancel_at_period_end: z.boolean() })
  .meta({ id: 'SubscriptionCancel' });
export const SubscriptionRevoke = z
  .object({ ...cancellation, revoke: z.literal(true) })
  .meta({ id: 'SubscriptionRevoke' });

/** Exactly one variant, told apart by which keys are present (the first that matches wins). */
export const SubscriptionUpdate = z
  .union([SubscriptionUpdateProduct, SubscriptionUpdateDiscount, SubscriptionCancel, SubscriptionRevoke])
  .meta({ id: 'SubscriptionUpdate' });
export type SubscriptionUpdateInput = z.output<typeof SubscriptionUpdate>;

/** No change: the preview of the next renewal as it stands (pending proration included). */
export const SubscriptionPreviewRenewal = z.strictObject({}).meta({ id: 'SubscriptionPreviewRenewal' });

/**
 * The body of a preview: a product change (with its proration) or a discount change, as for an update;
 * an empty body previews the next renewal.
 */
export const SubscriptionPreviewRequest = z
  .union([SubscriptionUpdateProduct, SubscriptionUpdateDiscount, SubscriptionPreviewRenewal])
  .meta({ id: 'SubscriptionPreviewRequest' });
export type SubscriptionPreviewInput = z.output<typeof SubscriptionPreviewRequest>;

export const SubscriptionPreviewItem = z
  .object({
    label: z.string(),
    amount: z.int(),
    tax_amount: z.int(),
    proration: z.boolean(),
    product_price_id: z.uuid().nullable(),
  })
  .meta({ id: 'SubscriptionPreviewItem' });

/** An order as billing would make it: its lines, discount, tax, total, and what the card is asked for. */
export const SubscriptionPreviewOrder = z
  .object({
    billing_reason: z.enum(['subscription_update', 'subscription_cycle']),
    currency: z.string(),
    items: z.array(SubscriptionPreviewItem),
    subtotal_amount: z.int(),
    discount_amount: z.int(),
    tax_amount: z.int(),
    total_amount: z.int(),
    /** What the customer's credit balance pays of the total. */
    applied_balance_amount: z.int(),
    /** What is charged to the payment method. */
    due_amount: z.int(),
  })
  .meta({ id: 'SubscriptionPreviewOrder' });

export const SubscriptionPreview = z
  .object({
    product_id: z.uuid(),
    discount_id: z.uuid().nullable(),
    recurring_interval: SubscriptionRecurringInterval,
    /** The subscription's amount per period after the change (at its discount). */
    amount: z.int(),
    currency: z.string(),
    current_period_end: DateTime().nullable(),
    /** The order billed when the change is made; null when nothing is billed then. */
    immediate: SubscriptionPreviewOrder.nullable(),
    /** The order of the next renewal (proration waiting for it included), on `renews_at`. */
    next_renewal: SubscriptionPreviewOrder.extend({ renews_at: DateTime() }).nullable(),
  })
  .meta({
    id: 'SubscriptionPreview',
    description:
      'A dry run of a plan or discount change, priced by the code that bills it. Usage of metered prices is not included.',
  });
export type SubscriptionPreviewWire = z.input<typeof SubscriptionPreview>;

/** Extension: one change in a subscription's history (GET /v1/subscriptions/{id}/history). */
export const SubscriptionChange = z
  .object({
    id: z.uuid(),
    created_at: DateTime(),
    subscription_id: z.uuid(),
    kind: z.enum([
      'created',
      'trial_started',
      'trial_converted',
      'product_changed',
      'discount_changed',
      'canceled',
      'uncanceled',
      'revoked',
      'ended',
      'past_due',
      'recovered',
    ]),
    actor: z.enum(['seller', 'customer', 'system']),
    details: z
      .record(z.string(), z.unknown())
      .describe(
        'What changed: product and discount ids and amounts before and after, the cancellation reason and ' +
          'comment, the end cause (revoked, period_end, trial_unpaid, payment_failed, customer_deleted).',
      ),
  })
  .meta({ id: 'SubscriptionChange' });

export const ListResourceSubscriptionChange = ListResource(SubscriptionChange, 'ListResourceSubscriptionChange');
export const SubscriptionHistoryQuery = z.object({ ...paginationQuery });
