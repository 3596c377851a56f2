import type { Timestamp } from './types.js';

/**
 * Tables of migration 0046: per organization, UTC hour, product and writer shard, the sums of the
 * orders (paid, refunded or partially refunded) and checkouts the metrics count, kept by triggers on
 * `orders` and `checkouts` (docs/metrics.md, Scale). Read only by metrics.repository.ts.
 */
export interface MetricsOrderHoursTable {
  organization_id: string;
  hour: Timestamp;
  product_id: string;
  shard: number;
  orders: string;
  revenue: string;
  net_revenue: string;
  one_time_orders: string;
  one_time_revenue: string;
}

export interface MetricsCheckoutHoursTable {
  organization_id: string;
  hour: Timestamp;
  product_id: string;
  shard: number;
  checkouts: string;
  succeeded_checkouts: string;
}

export interface MetricsRollupTables {
  metrics_order_hours: MetricsOrderHoursTable;
  metrics_checkout_hours: MetricsCheckoutHoursTable;
}
