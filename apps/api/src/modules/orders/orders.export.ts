import { isoformat, majorUnits, type CsvValue } from '../../platform/http/csv.js';

/**
 * `GET /v1/orders/export`: the reference's default columns (server/polar/order/export.py), amounts in
 * major units as it prints them, instants in UTC.
 */
export const ORDER_EXPORT_HEADER = [
  'Email',
  'Created At',
  'Product',
  'Net Amount',
  'Currency',
  'Status',
  'Invoice number',
] as const;

export interface OrderExportRow {
  customer_email: string;
  created_at: Date;
  product_name: string;
  net_amount: number;
  currency: string;
  status: string;
  invoice_number: string | null;
}

export function orderExportCells(row: OrderExportRow): CsvValue[] {
  return [
    row.customer_email,
    isoformat(row.created_at),
    row.product_name,
    majorUnits(row.net_amount),
    row.currency,
    row.status,
    row.invoice_number,
  ];
}
