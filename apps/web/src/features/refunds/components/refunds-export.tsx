import type { Refund } from '@tessera/sdk';
import { ExportCsvButton } from '../../../components/ui/export-csv-button';
import type { CsvColumn } from '../../../lib/csv';
import { toMajorUnits } from '../../../lib/format';
import { getRefunds } from '../api/get-refunds';

/** The columns of the refunds export: ids, raw statuses and dates (ISO 8601), amounts in major units. */
export const REFUNDS_CSV_COLUMNS: readonly CsvColumn<Refund>[] = [
  { header: 'ID', value: (refund) => refund.id },
  { header: 'Created at', value: (refund) => refund.created_at },
  { header: 'Status', value: (refund) => refund.status },
  { header: 'Reason', value: (refund) => refund.reason },
  { header: 'Currency', value: (refund) => refund.currency.toUpperCase() },
  { header: 'Amount', value: (refund) => toMajorUnits(refund.amount, refund.currency) },
  { header: 'Tax', value: (refund) => toMajorUnits(refund.tax_amount, refund.currency) },
  { header: 'Order ID', value: (refund) => refund.order_id },
  { header: 'Subscription ID', value: (refund) => refund.subscription_id },
  { header: 'Customer ID', value: (refund) => refund.customer_id },
];

/** "Export CSV" of every refund of the organization. */
export function RefundsExport({ organizationId }: { organizationId: string }) {
  return (
    <ExportCsvButton
      filename="refunds"
      columns={REFUNDS_CSV_COLUMNS}
      fetchPage={(page) => getRefunds({ organization_id: organizationId, page, limit: 100 })}
    />
  );
}
