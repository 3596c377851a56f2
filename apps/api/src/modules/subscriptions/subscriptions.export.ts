import { isoformat, majorUnits, type CsvValue } from '../../platform/http/csv.js';

/**
 * `GET /v1/subscriptions/export` as CSV (asked with `Accept: text/csv`, as SDK 0.49 does): the
 * reference's default columns (server/polar/subscription/export.py). Every Tessera price recurs once
 * per interval, so the interval is its name alone.
 */
export const SUBSCRIPTION_EXPORT_HEADER = [
  'Email',
  'Started At',
  'Product',
  'Amount',
  'Currency',
  'Status',
  'Billing Interval',
] as const;

export interface SubscriptionExportRow {
  customer_email: string;
  started_at: Date | null;
  product_name: string;
  amount: number;
  currency: string;
  status: string;
  recurring_interval: string;
}

export function subscriptionExportCells(row: SubscriptionExportRow): CsvValue[] {
  return [
    row.customer_email,
    isoformat(row.started_at),
    row.product_name,
    majorUnits(row.amount),
    row.currency,
    row.status,
    row.recurring_interval,
  ];
}
