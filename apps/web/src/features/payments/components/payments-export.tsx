import type { Payment } from '@tessera/sdk';
import { ExportCsvButton } from '../../../components/ui/export-csv-button';
import type { CsvColumn } from '../../../lib/csv';
import { toMajorUnits } from '../../../lib/format';
import { getPayments } from '../api/get-payments';

/** The columns of the payments export: ids, raw statuses and dates (ISO 8601), amounts in major units. */
export const PAYMENTS_CSV_COLUMNS: readonly CsvColumn<Payment>[] = [
  { header: 'ID', value: (payment) => payment.id },
  { header: 'Created at', value: (payment) => payment.created_at },
  { header: 'Status', value: (payment) => payment.status },
  { header: 'Method', value: (payment) => payment.method },
  { header: 'Currency', value: (payment) => payment.currency.toUpperCase() },
  { header: 'Amount', value: (payment) => toMajorUnits(payment.amount, payment.currency) },
  { header: 'Decline reason', value: (payment) => payment.decline_reason },
  { header: 'Order ID', value: (payment) => payment.order_id },
  { header: 'Checkout ID', value: (payment) => payment.checkout_id },
];

/** "Export CSV" of every payment of the organization. */
export function PaymentsExport({ organizationId }: { organizationId: string }) {
  return (
    <ExportCsvButton
      filename="payments"
      columns={PAYMENTS_CSV_COLUMNS}
      fetchPage={(page) => getPayments({ organization_id: organizationId, page, limit: 100 })}
    />
  );
}
