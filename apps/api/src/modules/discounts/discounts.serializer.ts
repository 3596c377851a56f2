import type { z } from 'zod/v4';
import type { Metadata } from '../../platform/http/metadata.js';
import { iso } from '../../platform/http/schemas.js';
import type { DiscountProductRow, DiscountRow } from './discounts.repository.js';
import { serializeDiscountProduct } from '../products/products.serializer.js';
import type { Discount, DiscountBase } from './discounts.schemas.js';

export type DiscountWire = z.input<typeof Discount>;
export type DiscountBaseWire = z.input<typeof DiscountBase>;

/** The discount as embedded in checkout links, orders and subscriptions (no products). */
export function serializeDiscountBase(row: DiscountRow): DiscountBaseWire {
  const common = {
    created_at: iso(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    metadata: (row.metadata ?? {}) as Metadata,
    name: row.name,
    code: row.code,
    starts_at: iso(row.starts_at),
    ends_at: iso(row.ends_at),
    max_redemptions: row.max_redemptions,
    redemptions_count: row.redemptions_count,
    organization_id: row.organization_id,
  };
  const amount =
    row.type === 'fixed'
      ? { type: 'fixed' as const, amount: row.amount!, currency: row.currency! }
      : { type: 'percentage' as const, basis_points: row.basis_points! };
  const duration =
    row.duration === 'repeating'
      ? { duration: 'repeating' as const, duration_in_months: row.duration_in_months! }
      : { duration: row.duration };
  return { ...common, ...amount, ...duration } as DiscountBaseWire;
}

export function serializeDiscount(row: DiscountRow, products: DiscountProductRow[]): DiscountWire {
  return { ...serializeDiscountBase(row), products: products.map(serializeDiscountProduct) } as DiscountWire;
}
