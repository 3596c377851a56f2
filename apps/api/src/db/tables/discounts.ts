import type { ColumnType } from 'kysely';
import type { Json, NullableTimestamp, Timestamp } from './types.js';

/** Tables of migration 0006: discounts, their product restrictions and redemptions. */
export interface DiscountsTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  organization_id: string;
  name: string;
  code: string | null;
  type: 'fixed' | 'percentage';
  duration: 'once' | 'forever' | 'repeating';
  duration_in_months: number | null;
  amount: number | null;
  currency: string | null;
  basis_points: number | null;
  starts_at: NullableTimestamp;
  ends_at: NullableTimestamp;
  max_redemptions: number | null;
  metadata: Json;
}

export interface DiscountProductsTable {
  discount_id: string;
  product_id: string;
  created_at: Timestamp;
}

export interface DiscountRedemptionsTable {
  id: string;
  created_at: Timestamp;
  discount_id: string;
  checkout_id: ColumnType<string | null, string | null | undefined, string | null>;
  subscription_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface DiscountsTables {
  discounts: DiscountsTable;
  discount_products: DiscountProductsTable;
  discount_redemptions: DiscountRedemptionsTable;
}
