import type { z } from 'zod/v4';
import { displayKey } from '../license-keys/license-keys.keys.js';
import type {
  CustomerHit,
  searchLicenseKeys,
  searchOrders,
  searchProducts,
  searchSubscriptions,
} from './search.repository.js';
import type { SearchResult } from './search.schemas.js';

export type SearchResultWire = z.input<typeof SearchResult>;

type RowOf<F extends (...args: never[]) => Promise<unknown[]>> = Awaited<ReturnType<F>>[number];

export function customerResult(row: CustomerHit): SearchResultWire {
  return {
    type: 'customer',
    id: row.id,
    organization_id: row.organization_id,
    title: row.name ?? row.email,
    description: row.name ? row.email : null,
  };
}

export function orderResult(row: RowOf<typeof searchOrders>): SearchResultWire {
  return {
    type: 'order',
    id: row.id,
    organization_id: row.organization_id,
    title: `${row.product_name} · ${row.invoice_number}`,
    description: row.customer_email,
  };
}

export function productResult(row: RowOf<typeof searchProducts>): SearchResultWire {
  const billing = row.recurring_interval ? `Every ${row.recurring_interval}` : 'One-time';
  return {
    type: 'product',
    id: row.id,
    organization_id: row.organization_id,
    title: row.name,
    description: row.is_archived ? `${billing} · archived` : billing,
  };
}

export function subscriptionResult(row: RowOf<typeof searchSubscriptions>): SearchResultWire {
  return {
    type: 'subscription',
    id: row.id,
    organization_id: row.organization_id,
    title: row.product_name,
    description: `${row.customer_email} · ${row.status.replace(/_/g, ' ')}`,
  };
}

/** The key itself is never answered here: its display form, as lists show it. */
export function licenseKeyResult(row: RowOf<typeof searchLicenseKeys>): SearchResultWire {
  return {
    type: 'license_key',
    id: row.id,
    organization_id: row.organization_id,
    title: displayKey(row.key),
    description: `${row.customer_email} · ${row.status}`,
  };
}
