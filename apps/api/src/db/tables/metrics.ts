import type { Timestamp } from './types.js';

/** Table of migration 0049: checkouts and succeeded checkouts per organization, UTC hour and product. */
export interface MetricsCheckoutHoursTable {
  organization_id: string;
  hour: Timestamp;
  product_id: string;
  checkouts: number;
  succeeded: number;
}

export interface MetricsTables {
  metrics_checkout_hours: MetricsCheckoutHoursTable;
}
