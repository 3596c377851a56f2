import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './types.js';

/**
 * Tables of migration 0011 (the subscriptions issue). The `past_due_at` column it adds to
 * `subscriptions` is typed with that table in `checkouts.ts`.
 */
export interface SubscriptionChargesTable {
  order_id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  organization_id: string;
  subscription_id: string;
  period_start: Timestamp;
  billing_reason: 'subscription_cycle' | 'subscription_update';
  /** `refunding`/`refunded` (migration 0014): money that came in after the subscription ended goes back. */
  status: 'pending' | 'paid' | 'failed' | 'refunding' | 'refunded';
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: NullableTimestamp;
  /** The processor's payment to refund (migration 0014). */
  refund_payment_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** A billing run's claim on the due charge, until `claimed_until` (migration 0047). */
  claim: ColumnType<string | null, string | null | undefined, string | null>;
  claimed_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface SubscriptionBillingEntriesTable {
  id: string;
  created_at: Timestamp;
  subscription_id: string;
  label: string;
  amount: number;
  product_price_id: string | null;
  order_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Migration 0031: a change of a subscription's amount or interval, for MRR movements (docs/metrics.md). */
export interface SubscriptionAmountChangesTable {
  id: string;
  subscription_id: string;
  organization_id: string;
  changed_at: Timestamp;
  previous_amount: number;
  previous_interval: 'month' | 'year';
  amount: number;
  recurring_interval: 'month' | 'year';
  /** Migration 0050: the order of recording, for changes at one instant (one test-clock moment). */
  seq: Generated<string>;
}

/** Migration 0036: who had a trial of which product (one trial per customer and product). */
export interface TrialRedemptionsTable {
  id: string;
  created_at: Timestamp;
  organization_id: string;
  product_id: string;
  customer_id: string;
  /** Lower-cased. */
  email: string;
  /** Migration 0040: the checkout that reserved it (at confirm); the subscription once it succeeded. */
  checkout_id: string | null;
  subscription_id: string | null;
}

export interface SubscriptionsTables {
  trial_redemptions: TrialRedemptionsTable;
  subscription_charges: SubscriptionChargesTable;
  subscription_billing_entries: SubscriptionBillingEntriesTable;
  subscription_amount_changes: SubscriptionAmountChangesTable;
}
