import { z } from 'zod/v4';
import { oneOrList, paginationQuery, queryBool, queryString, sortingQuery } from '../../../platform/http/query.js';
import { DateTime, Id, ListResource } from '../../../platform/http/schemas.js';
import {
  CustomerCancellationReason,
  Subscription,
  SubscriptionPreviewRenewal,
} from '../../subscriptions/subscriptions.schemas.js';
import { CustomerSubscriptionProduct } from '../customer-portal.schemas.js';

export const CustomerSubscriptionMeter = z
  .object({
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    id: z.uuid(),
    consumed_units: z.number(),
    credited_units: z.int(),
    amount: z.int(),
    meter_id: z.uuid(),
    meter: z
      .object({ created_at: DateTime(), modified_at: DateTime().nullable(), id: z.uuid(), name: z.string() })
      .meta({ id: 'CustomerSubscriptionMeterMeter' }),
  })
  .meta({ id: 'CustomerSubscriptionMeter' });

/** The seller's subscription without what is the seller's own: metadata, custom field answers, the discount. */
export const CustomerSubscription = Subscription.omit({
  metadata: true,
  custom_field_data: true,
  customer: true,
  discount: true,
})
  .extend({ product: CustomerSubscriptionProduct, meters: z.array(CustomerSubscriptionMeter) })
  .meta({ id: 'CustomerSubscription' });

export const ListResourceCustomerSubscription = ListResource(CustomerSubscription, 'ListResourceCustomerSubscription');

export const CUSTOMER_SUBSCRIPTION_SORT_KEYS = ['started_at', 'amount', 'status', 'organization', 'product'] as const;

export const CustomerSubscriptionListQuery = z.object({
  organization_id: oneOrList(Id()),
  product_id: oneOrList(Id()),
  active: queryBool(),
  /** Searches the product's name. */
  query: queryString(),
  ...paginationQuery,
  sorting: sortingQuery(CUSTOMER_SUBSCRIPTION_SORT_KEYS, ['-started_at']),
});
export type CustomerSubscriptionListParams = z.output<typeof CustomerSubscriptionListQuery>;

/**
 * Cancels at the end of the period (`true`) or takes a pending cancellation back (`false`); without
 * `cancel_at_period_end` nothing changes. Strict, so that a body meant as a plan change with a bad
 * value is a 422 rather than an empty cancellation.
 */
export const CustomerSubscriptionCancel = z
  .strictObject({
    cancel_at_period_end: z.boolean().nullable().optional(),
    cancellation_reason: CustomerCancellationReason.nullable().optional(),
    cancellation_comment: z.string().nullable().optional(),
  })
  .meta({ id: 'CustomerSubscriptionCancel' });

export const CustomerSubscriptionUpdateProduct = z
  .object({ product_id: Id() })
  .meta({ id: 'CustomerSubscriptionUpdateProduct' });

// The cancellation comes first: when neither variant fits, the 422 then names the field that was wrong.
export const CustomerSubscriptionUpdate = z
  .union([CustomerSubscriptionCancel, CustomerSubscriptionUpdateProduct])
  .meta({ id: 'CustomerSubscriptionUpdate' });
export type CustomerSubscriptionUpdateInput = z.output<typeof CustomerSubscriptionUpdate>;

/** A plan change to preview, or nothing (an empty body: the next renewal as it stands). */
export const CustomerSubscriptionPreviewRequest = z
  .union([CustomerSubscriptionUpdateProduct, SubscriptionPreviewRenewal])
  .meta({ id: 'CustomerSubscriptionPreviewRequest' });
