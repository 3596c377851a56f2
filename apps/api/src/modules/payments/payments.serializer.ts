import type { z } from 'zod/v4';
import { iso } from '../../platform/http/schemas.js';
import type { PaymentRow } from './payments.repository.js';
import type { Payment } from './payments.schemas.js';

export type PaymentWire = z.input<typeof Payment>;

/** A card payment carries `method_metadata {brand, last4}`; any other method is the generic shape. */
export function serializePayment(row: PaymentRow): PaymentWire {
  const base = {
    created_at: iso(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    processor: 'stripe' as const,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    decline_reason: row.decline_reason,
    decline_message: row.decline_message,
    organization_id: row.organization_id,
    checkout_id: row.checkout_id,
    order_id: row.order_id,
  };
  const card = row.method_metadata as { brand?: string; last4?: string } | null;
  if (row.method === 'card' && card) {
    return { ...base, method: 'card', method_metadata: { brand: card.brand ?? 'unknown', last4: card.last4 ?? '' } };
  }
  return { ...base, method: row.method };
}
