import type { Customer } from '@tessera/sdk';
import { ExportCsvButton } from '../../../components/ui/export-csv-button';
import type { CsvColumn } from '../../../lib/csv';
import { getCustomers } from '../api/get-customers';

/** The columns of the customers export: ids, raw statuses and dates (ISO 8601), amounts in major units. */
export const CUSTOMERS_CSV_COLUMNS: readonly CsvColumn<Customer>[] = [
  { header: 'ID', value: (customer) => customer.id },
  { header: 'Email', value: (customer) => customer.email },
  { header: 'Name', value: (customer) => customer.name },
  { header: 'External ID', value: (customer) => customer.external_id },
  { header: 'Country', value: (customer) => customer.billing_address?.country },
  { header: 'Created at', value: (customer) => customer.created_at },
];

/** "Export CSV" of every customer of the organization. */
export function CustomersExport({ organizationId }: { organizationId: string }) {
  return (
    <ExportCsvButton
      filename="customers"
      columns={CUSTOMERS_CSV_COLUMNS}
      fetchPage={(page) => getCustomers({ organization_id: organizationId, page, limit: 100 })}
    />
  );
}
