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

export interface MetricsTables {
  metrics_checkout_hours: MetricsCheckoutHoursTable;
}
