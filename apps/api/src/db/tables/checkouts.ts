import type { ColumnType } from 'kysely';
import type { Json, NullableJson, NullableTimestamp, Timestamp } from './types.js';
import type { TrialInterval } from './products.js';

/** Tables of migration 0010: checkouts, their products, subscriptions and their price snapshots. */
export type CheckoutStatus = 'open' | 'expired' | 'confirmed' | 'succeeded' | 'failed';

export interface CheckoutsTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  organization_id: string;
  client_secret: string;
  status: CheckoutStatus;
  expires_at: Timestamp;
  success_url: string | null;
  embed_origin: string | null;
  payment_processor: ColumnType<string, string | undefined, string>;
  payment_processor_metadata: Json;
  product_id: string;
  product_price_id: string;
  amount: number;
  currency: string;
  tax_amount: number | null;
  discount_id: string | null;
  allow_discount_codes: boolean;
  require_billing_address: boolean;
  is_business_customer: boolean;
  customer_id: string | null;
  customer_external_id: string | null;
  customer_name: string | null;
  customer_email: string | null;
  customer_ip_address: string | null;
  customer_billing_name: string | null;
  customer_billing_address: NullableJson;
  customer_tax_id: NullableJson;
  /** Migration 0026: the calculation behind `tax_amount` (rate, label, jurisdiction, reverse charge). */
  tax_details: NullableJson;
  customer_metadata: Json;
  metadata: Json;
  custom_field_data: Json;
  subscription_id: string | null;
  checkout_link_id: string | null;
  /** Migration 0036: the checkout's trial (null: the product's). */
  trial_interval: ColumnType<TrialInterval | null, TrialInterval | null | undefined, TrialInterval | null>;
  trial_interval_count: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface CheckoutProductsTable {
  checkout_id: string;
  product_id: string;
  order: number;
}

export type SubscriptionStatus =
  'incomplete' | 'incomplete_expired' | 'trialing' | 'active' | 'past_due' | 'canceled' | 'unpaid';

export interface SubscriptionsTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  organization_id: string;
  customer_id: string;
  product_id: string;
  amount: number;
  currency: string;
  recurring_interval: 'month' | 'year';
  status: SubscriptionStatus;
  current_period_start: Timestamp;
  current_period_end: NullableTimestamp;
  anchor_day: number;
  cancel_at_period_end: boolean;
  canceled_at: NullableTimestamp;
  started_at: NullableTimestamp;
  ends_at: NullableTimestamp;
  ended_at: NullableTimestamp;
  discount_id: string | null;
  checkout_id: string | null;
  customer_cancellation_reason: string | null;
  customer_cancellation_comment: string | null;
  metadata: Json;
  custom_field_data: Json;
  payment_method_id: string | null;
  /** Migration 0011: when the subscription first went past due (null when paid up). */
  past_due_at: NullableTimestamp;
  /** Migration 0014: the start of the first period the discount paid for. */
  discount_applied_at: NullableTimestamp;
  /** Migration 0036: the trial (null: none); `trial_reminded_at`: the trial-ending email was queued. */
  trial_start: NullableTimestamp;
  trial_end: NullableTimestamp;
  trial_reminded_at: NullableTimestamp;
  /** Migration 0047: a billing run's claim on the due renewal, until `renewal_claimed_until`. */
  renewal_claim: ColumnType<string | null, string | null | undefined, string | null>;
  renewal_claimed_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface SubscriptionPricesTable {
  subscription_id: string;
  product_price_id: string;
  position: number;
  amount: number;
}

export interface CheckoutsTables {
  checkouts: CheckoutsTable;
  checkout_products: CheckoutProductsTable;
  subscriptions: SubscriptionsTable;
  subscription_prices: SubscriptionPricesTable;
}
