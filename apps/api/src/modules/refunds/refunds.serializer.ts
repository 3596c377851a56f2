import type { z } from 'zod/v4';
import type { Metadata } from '../../platform/http/metadata.js';
import { iso } from '../../platform/http/schemas.js';
import type { RefundRow } from './refunds.repository.js';
import type { Refund } from './refunds.schemas.js';

export type RefundWire = z.input<typeof Refund>;

export function serializeRefund(row: RefundRow): RefundWire {
  return {
    created_at: iso(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    metadata: (row.metadata ?? {}) as Metadata,
    status: row.status,
    reason: row.reason,
    amount: row.amount,
    tax_amount: row.tax_amount,
    currency: row.currency,
    organization_id: row.organization_id,
    order_id: row.order_id,
    subscription_id: row.subscription_id,
    customer_id: row.customer_id,
    revoke_benefits: row.revoke_benefits,
  };
}
