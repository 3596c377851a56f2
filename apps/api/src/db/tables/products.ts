import type { ColumnType } from 'kysely';
import type { Json, NullableTimestamp, Timestamp } from './types.js';

/** Tables of migration 0005: products, their prices, attached benefits and custom fields. */
export interface ProductsTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  organization_id: string;
  name: string;
  description: string | null;
  recurring_interval: 'month' | 'year' | null;
  is_archived: boolean;
  metadata: Json;
  price_sort_type: number | null;
  price_sort_amount: number | null;
  /** Migration 0026: false for a product exempt from tax. */
  is_tax_applicable: ColumnType<boolean, boolean | undefined, boolean>;
  /** Migration 0036: the trial a recurring product offers (both set, or both null). */
  trial_interval: ColumnType<TrialInterval | null, TrialInterval | null | undefined, TrialInterval | null>;
  trial_interval_count: ColumnType<number | null, number | null | undefined, number | null>;
  /** False: a card-less trial (no card asked at checkout; it ends at trial end unless one is added). */
  trial_requires_payment_method: ColumnType<boolean, boolean | undefined, boolean>;
  /** One trial per customer (email) of this product. */
  trial_once_per_customer: ColumnType<boolean, boolean | undefined, boolean>;
}

export type TrialInterval = 'day' | 'week' | 'month' | 'year';

export interface ProductPricesTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  product_id: string;
  position: number;
  amount_type: 'fixed' | 'custom' | 'free' | 'metered_unit';
  is_archived: boolean;
  price_currency: string | null;
  price_amount: number | null;
  minimum_amount: number | null;
  maximum_amount: number | null;
  preset_amount: number | null;
  /** numeric(17,12), read and written as a decimal string (never a float). */
  unit_amount: string | null;
  cap_amount: number | null;
  meter_id: string | null;
}

export interface ProductBenefitsTable {
  product_id: string;
  benefit_id: string;
  order: number;
  created_at: Timestamp;
}

export interface ProductCustomFieldsTable {
  product_id: string;
  custom_field_id: string;
  order: number;
  required: boolean;
}

export interface ProductsTables {
  products: ProductsTable;
  product_prices: ProductPricesTable;
  product_benefits: ProductBenefitsTable;
  product_custom_fields: ProductCustomFieldsTable;
}
