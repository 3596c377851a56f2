import type { Order } from '@tessera/sdk';
import { ExportCsvButton } from '../../../components/ui/export-csv-button';
import type { CsvColumn } from '../../../lib/csv';
import { toMajorUnits } from '../../../lib/format';
import { getOrders } from '../api/get-orders';

/** The columns of the orders export: ids, raw statuses and dates (ISO 8601), amounts in major units. */
export const ORDERS_CSV_COLUMNS: readonly CsvColumn<Order>[] = [
  { header: 'ID', value: (order) => order.id },
  { header: 'Created at', value: (order) => order.created_at },
  { header: 'Customer email', value: (order) => order.customer.email },
  { header: 'Product', value: (order) => order.product?.name },
  { header: 'Billing reason', value: (order) => order.billing_reason },
  { header: 'Status', value: (order) => order.status },
  { header: 'Currency', value: (order) => order.currency.toUpperCase() },
  { header: 'Subtotal', value: (order) => toMajorUnits(order.subtotal_amount, order.currency) },
  { header: 'Discount', value: (order) => toMajorUnits(order.discount_amount, order.currency) },
  { header: 'Tax', value: (order) => toMajorUnits(order.tax_amount, order.currency) },
  { header: 'Total', value: (order) => toMajorUnits(order.total_amount, order.currency) },
  { header: 'Refunded', value: (order) => toMajorUnits(order.refunded_amount, order.currency) },
  { header: 'Subscription ID', value: (order) => order.subscription_id },
];

/** "Export CSV" of every order of the organization. */
export function OrdersExport({ organizationId }: { organizationId: string }) {
  return (
    <ExportCsvButton
      filename="orders"
      columns={ORDERS_CSV_COLUMNS}
      fetchPage={(page) => getOrders({ organization_id: organizationId, page, limit: 100 })}
    />
  );
}
