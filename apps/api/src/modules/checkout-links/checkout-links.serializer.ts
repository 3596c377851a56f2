import type { z } from 'zod/v4';
import type { Metadata } from '../../platform/http/metadata.js';
import { iso } from '../../platform/http/schemas.js';
import type { DiscountRow } from '../discounts/discounts.repository.js';
import { serializeDiscountBase } from '../discounts/discounts.serializer.js';
import type { ProductBundle } from '../products/products.serializer.js';
import { serializeCheckoutLinkProduct } from '../products/products.serializer.js';
import type { CheckoutLinkRow } from './checkout-links.repository.js';
import type { CheckoutLink, CheckoutLinkStats } from './checkout-links.schemas.js';

export function serializeCheckoutLink(
  row: CheckoutLinkRow,
  products: ProductBundle[],
  discount: DiscountRow | null,
  url: string,
  stats: LinkCounts,
): z.input<typeof CheckoutLink> {
  return {
    created_at: iso(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    metadata: (row.metadata ?? {}) as Metadata,
    payment_processor: 'stripe',
    client_secret: row.client_secret,
    success_url: row.success_url,
    label: row.label,
    allow_discount_codes: row.allow_discount_codes,
    require_billing_address: row.require_billing_address,
    discount_id: row.discount_id,
    organization_id: row.organization_id,
    products: products.map(serializeCheckoutLinkProduct),
    discount: discount ? serializeDiscountBase(discount) : null,
    url,
    trial_interval: row.trial_interval,
    trial_interval_count: row.trial_interval_count,
    stats: serializeLinkStats(stats),
  };
}

export interface LinkCounts {
  visits: number;
  started: number;
  completed: number;
}

export const NO_LINK_COUNTS: LinkCounts = { visits: 0, started: 0, completed: 0 };

/** Conversion is completed over visits (a checkout can be completed without a counted visit: capped at 1). */
export function serializeLinkStats(counts: LinkCounts): z.input<typeof CheckoutLinkStats> {
  return {
    visits: counts.visits,
    checkouts_started: counts.started,
    checkouts_completed: counts.completed,
    conversion: counts.visits > 0 ? Math.min(1, counts.completed / counts.visits) : 0,
  };
}
