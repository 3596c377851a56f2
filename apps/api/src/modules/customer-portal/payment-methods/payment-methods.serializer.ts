import type { z } from 'zod/v4';
import { iso } from '../../../platform/http/schemas.js';
import type { CustomerPaymentMethod, PaymentMethod } from './payment-methods.schemas.js';
import type { PaymentMethodRow } from './payment-methods.repository.js';

export type PaymentMethodWire = z.input<typeof PaymentMethod>;

/** A card with known details is a `PaymentMethodCard`; anything else the generic shape. */
export function serializePaymentMethod(row: PaymentMethodRow): PaymentMethodWire {
  const base = { id: row.id, created_at: iso(row.created_at), default: row.is_default };
  if (row.type === 'card' && row.brand && row.last4 && row.exp_month !== null && row.exp_year !== null) {
    return {
      ...base,
      type: 'card',
      card: {
        brand: row.brand,
        last4: row.last4,
        exp_month: row.exp_month,
        exp_year: row.exp_year,
        wallet: row.wallet,
      },
    };
  }
  return { ...base, type: row.type };
}

/** The seller's view of a method: a card with known details carries them as `method_metadata`. */
export function serializeCustomerPaymentMethod(row: PaymentMethodRow): z.input<typeof CustomerPaymentMethod> {
  const base = {
    id: row.id,
    created_at: iso(row.created_at),
    modified_at: row.modified_at ? iso(row.modified_at) : null,
    processor: 'stripe' as const,
    customer_id: row.customer_id,
    is_default: row.is_default,
  };
  if (row.type === 'card' && row.brand && row.last4 && row.exp_month !== null && row.exp_year !== null) {
    return {
      ...base,
      type: 'card',
      method_metadata: {
        brand: row.brand,
        last4: row.last4,
        exp_month: row.exp_month,
        exp_year: row.exp_year,
        wallet: row.wallet,
      },
    };
  }
  return { ...base, type: row.type };
}
