import { z } from 'zod/v4';
import { MetadataInput, MetadataOutput } from '../../platform/http/metadata.js';
import { oneOrList, paginationQuery, queryBool, sortingQuery } from '../../platform/http/query.js';
import { DateTime, Id, ListResource } from '../../platform/http/schemas.js';

export const REFUND_STATUSES = ['pending', 'succeeded', 'failed', 'canceled'] as const;
export const REFUND_REASONS = [
  'duplicate',
  'fraudulent',
  'customer_request',
  'service_disruption',
  'satisfaction_guarantee',
  'other',
] as const;

export const RefundStatus = z.enum(REFUND_STATUSES).meta({ id: 'RefundStatus' });
export const RefundReason = z.enum(REFUND_REASONS).meta({ id: 'RefundReason' });

export const Refund = z
  .object({
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    id: z.uuid(),
    metadata: MetadataOutput,
    status: RefundStatus,
    reason: RefundReason,
    amount: z.int(),
    tax_amount: z.int(),
    currency: z.string(),
    organization_id: z.uuid(),
    order_id: z.uuid(),
    subscription_id: z.uuid().nullable(),
    customer_id: z.uuid(),
    revoke_benefits: z.boolean(),
  })
  .meta({ id: 'Refund' });

export const ListResourceRefund = ListResource(Refund, 'ListResourceRefund');

/** The refund amount excludes tax: its tax portion is computed from the order (refunds.money.ts). */
export const RefundCreate = z
  .object({
    metadata: MetadataInput.optional(),
    order_id: Id(),
    reason: RefundReason,
    amount: z
      .int()
      .min(1, { message: 'Input should be greater than 0' })
      .max(Number.MAX_SAFE_INTEGER)
      .meta({ description: 'Amount in cents to refund, excluding tax.' }),
    comment: z.string().max(1000).nullable().optional(),
    revoke_benefits: z
      .boolean()
      .default(false)
      .meta({ description: 'Revoke the benefits the order granted (one-time orders only).' }),
  })
  .meta({ id: 'RefundCreate' });
export type RefundCreateInput = z.output<typeof RefundCreate>;

export const RefundListQuery = z.object({
  id: oneOrList(Id()),
  organization_id: oneOrList(Id()),
  order_id: oneOrList(Id()),
  subscription_id: oneOrList(Id()),
  customer_id: oneOrList(Id()),
  /** true narrows to succeeded refunds; false does not filter (as the reference). */
  succeeded: queryBool(),
  ...paginationQuery,
  sorting: sortingQuery(['created_at', 'amount'], ['-created_at']),
});
export type RefundListParams = z.output<typeof RefundListQuery>;
