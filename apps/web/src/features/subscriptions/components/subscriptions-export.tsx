import type { Subscription } from '@tessera/sdk';
import { ExportCsvButton } from '../../../components/ui/export-csv-button';
import type { CsvColumn } from '../../../lib/csv';
import { toMajorUnits } from '../../../lib/format';
import { getSubscriptions } from '../api/get-subscriptions';

/** The columns of the subscriptions export: ids, raw statuses and dates (ISO 8601), amounts in major units. */
export const SUBSCRIPTIONS_CSV_COLUMNS: readonly CsvColumn<Subscription>[] = [
  { header: 'ID', value: (subscription) => subscription.id },
  { header: 'Customer email', value: (subscription) => subscription.customer.email },
  { header: 'Product', value: (subscription) => subscription.product.name },
  { header: 'Status', value: (subscription) => subscription.status },
  { header: 'Currency', value: (subscription) => subscription.currency.toUpperCase() },
  { header: 'Amount', value: (subscription) => toMajorUnits(subscription.amount, subscription.currency) },
  { header: 'Interval', value: (subscription) => subscription.recurring_interval },
  { header: 'Started at', value: (subscription) => subscription.started_at },
  { header: 'Current period end', value: (subscription) => subscription.current_period_end },
  { header: 'Cancels at period end', value: (subscription) => subscription.cancel_at_period_end },
  { header: 'Canceled at', value: (subscription) => subscription.canceled_at },
  { header: 'Ended at', value: (subscription) => subscription.ended_at },
  { header: 'Cancellation reason', value: (subscription) => subscription.customer_cancellation_reason },
  { header: 'Cancellation comment', value: (subscription) => subscription.customer_cancellation_comment },
];

/** "Export CSV" of every subscription of the organization. */
export function SubscriptionsExport({ organizationId }: { organizationId: string }) {
  return (
    <ExportCsvButton
      filename="subscriptions"
      columns={SUBSCRIPTIONS_CSV_COLUMNS}
      fetchPage={(page) => getSubscriptions({ organization_id: organizationId, page, limit: 100 })}
    />
  );
}
