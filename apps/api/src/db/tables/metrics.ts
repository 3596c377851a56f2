import type { Generated } from 'kysely';
import type { Timestamp } from './types.js';

/** Table of migration 0049: checkouts and succeeded checkouts per organization, UTC hour and product. */
export interface MetricsCheckoutHoursTable {
  organization_id: string;
  hour: Timestamp;
  product_id: string;
  /** 0-7, from the checkout's id: one hour and product over 8 rows, summed when read. */
  shard: number;
  checkouts: number;
  succeeded: number;
}

/** Migration 0050: hours of an organization's metrics a write made stale (`part`: orders, subscriptions, checkouts). */
export interface MetricsStaleHoursTable {
  id: Generated<string>;
  organization_id: string;
  part: 'orders' | 'subscriptions' | 'checkouts';
  from_hour: Timestamp;
  to_hour: Timestamp;
}

/** Migration 0050: an organization's metrics per UTC hour (docs/metrics.md, Hours); arrays of 25. */
export interface MetricsOrderHoursTable {
  organization_id: string;
  hour: Timestamp;
  orders: string;
  revenue: string;
  net_revenue: string;
  one_time_products: string;
  one_time_products_revenue: string;
  subscription_revenue: string;
  customers: string[];
  renewed: string[];
  new_revenue: string[];
  irregular: string;
}

export interface MetricsSubscriptionHoursTable {
  organization_id: string;
  hour: Timestamp;
  starts: string;
  starts_mrr: string;
  ends: string;
  ends_mrr: string;
  churned: string;
  churned_mrr: string[];
  new_mrr: string[];
  expansion_mrr: string;
  contraction_mrr: string;
  trial_starts: string;
  trial_overs: string;
  trial_conversions: string;
  trials_decided: string;
  irregular: string;
}

export interface MetricsCheckoutTotalsTable {
  organization_id: string;
  hour: Timestamp;
  checkouts: string;
  succeeded: string;
}

export interface MetricsTables {
  metrics_checkout_hours: MetricsCheckoutHoursTable;
  metrics_stale_hours: MetricsStaleHoursTable;
  metrics_order_hours: MetricsOrderHoursTable;
  metrics_subscription_hours: MetricsSubscriptionHoursTable;
  metrics_checkout_totals: MetricsCheckoutTotalsTable;
}
