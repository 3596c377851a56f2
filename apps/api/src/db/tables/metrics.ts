import type { Timestamp } from './types.js';

/**
 * Migration 0043: the metrics' hourly rollups per organization, UTC hour and product, kept by triggers
 * on orders and checkouts (docs/metrics.md, Scale).
 */
export interface MetricsHoursTable {
  organization_id: string;
  hour: Timestamp;
  product_id: string;
  orders: string;
  revenue: string;
  net_revenue: string;
  one_time_orders: string;
  one_time_revenue: string;
  new_subscription_revenue: string;
  renewals: string;
  renewal_revenue: string;
  checkouts: string;
  succeeded_checkouts: string;
}

export interface MetricsTables {
  metrics_hours: MetricsHoursTable;
}
