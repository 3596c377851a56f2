import type { z } from 'zod/v4';
import type { CustomerRow } from '../customers/customers.repository.js';
import { serializeCustomer } from '../customers/customers.serializer.js';
import type { DisputeRow } from './disputes.repository.js';
import { isClosed, isResolved } from './disputes.rules.js';
import type { Dispute } from './disputes.schemas.js';

export type DisputeWire = z.input<typeof Dispute>;

export function serializeDispute(row: DisputeRow, customer: CustomerRow): DisputeWire {
  return {
    created_at: row.created_at.toISOString(),
    modified_at: row.modified_at?.toISOString() ?? null,
    id: row.id,
    status: row.status,
    resolved: isResolved(row.status),
    closed: isClosed(row.status),
    amount: Number(row.amount),
    tax_amount: Number(row.tax_amount),
    currency: row.currency,
    reason: row.reason,
    evidence_due_by: row.evidence_due_by?.toISOString() ?? null,
    past_due: row.past_due,
    order_id: row.order_id,
    payment_id: row.payment_id!,
    customer: serializeCustomer(customer),
    case_id: null,
  };
}
