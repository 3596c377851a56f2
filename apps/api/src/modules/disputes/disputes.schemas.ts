import { z } from 'zod/v4';
import { oneOrList, paginationQuery, sortingQuery } from '../../platform/http/query.js';
import { DateTime, Id, ListResource } from '../../platform/http/schemas.js';
import { Customer } from '../customers/customers.schemas.js';
import { DISPUTE_STATUSES } from './disputes.rules.js';

export const DisputeStatus = z.enum(DISPUTE_STATUSES).meta({ id: 'DisputeStatus' });

/** A buyer's chargeback on a payment, as the reference's `Dispute`. */
export const Dispute = z
  .object({
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    id: z.uuid(),
    status: DisputeStatus,
    resolved: z.boolean().meta({ description: 'Whether the dispute has been resolved (won or lost).' }),
    closed: z.boolean().meta({ description: 'Whether the dispute is closed (prevented, won, or lost).' }),
    amount: z.int().meta({ description: 'Amount in cents disputed.' }),
    tax_amount: z.int().meta({ description: 'Tax amount in cents disputed.' }),
    currency: z.string(),
    reason: z.string().nullable(),
    evidence_due_by: DateTime().nullable(),
    past_due: z.boolean(),
    order_id: z.uuid(),
    payment_id: z.uuid(),
    customer: Customer,
    case_id: z.string().nullable().meta({ description: 'Tessera opens no support cases: always null.' }),
  })
  .meta({ id: 'Dispute' });

export const ListResourceDispute = ListResource(Dispute, 'ListResourceDispute');

export const DisputeListQuery = z.object({
  organization_id: oneOrList(Id()),
  order_id: oneOrList(Id()),
  status: oneOrList(DisputeStatus),
  ...paginationQuery,
  sorting: sortingQuery(['created_at', 'amount'], ['-created_at']),
});
export type DisputeListParams = z.output<typeof DisputeListQuery>;

/** A dispute opened as the processor would report one (development and tests only). */
export const DisputeSimulate = z
  .object({
    order_id: Id(),
    amount: z
      .int()
      .min(1)
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .meta({ description: "The disputed total, tax included, in cents (default: the order's total)." }),
    reason: z.string().min(1).max(100).default('fraudulent'),
    status: z.enum(['early_warning', 'needs_response']).default('needs_response'),
  })
  .meta({ id: 'DisputeSimulate' });
export type DisputeSimulateInput = z.output<typeof DisputeSimulate>;
