import type { ColumnType } from 'kysely';
import type { TrialInterval } from './products.js';
import type { Json, NullableTimestamp, Timestamp } from './types.js';

/** Tables of migration 0007: checkout links and their products. */
export interface CheckoutLinksTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  organization_id: string;
  client_secret: string;
  payment_processor: string;
  label: string | null;
  success_url: string | null;
  allow_discount_codes: boolean;
  require_billing_address: boolean;
  discount_id: string | null;
  metadata: Json;
  /** Migration 0036: the links' trial (null: the product's). */
  trial_interval: ColumnType<TrialInterval | null, TrialInterval | null | undefined, TrialInterval | null>;
  trial_interval_count: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface CheckoutLinkProductsTable {
  checkout_link_id: string;
  product_id: string;
  order: number;
}

export interface CheckoutLinksTables {
  checkout_links: CheckoutLinksTable;
  checkout_link_products: CheckoutLinkProductsTable;
  checkout_link_visits: CheckoutLinkVisitsTable;
}

/** Migration 0041: visits of a link, one counter per day (no detail of the visitor). */
export interface CheckoutLinkVisitsTable {
  checkout_link_id: string;
  day: ColumnType<string, string, string>;
  visits: number;
}
