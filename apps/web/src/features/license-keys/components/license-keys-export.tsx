import type { LicenseKeyRead } from '@tessera/sdk';
import { ExportCsvButton } from '../../../components/ui/export-csv-button';
import type { CsvColumn } from '../../../lib/csv';
import { getLicenseKeys } from '../api/get-license-keys';

/** The columns of the license keys export: ids, raw statuses and dates (ISO 8601), amounts in major units. */
export const LICENSE_KEYS_CSV_COLUMNS: readonly CsvColumn<LicenseKeyRead>[] = [
  { header: 'ID', value: (key) => key.id },
  { header: 'Key', value: (key) => key.display_key },
  { header: 'Customer email', value: (key) => key.customer.email },
  { header: 'Status', value: (key) => key.status },
  { header: 'Usage', value: (key) => key.usage },
  { header: 'Usage limit', value: (key) => key.limit_usage },
  { header: 'Activation limit', value: (key) => key.limit_activations },
  { header: 'Validations', value: (key) => key.validations },
  { header: 'Last validated at', value: (key) => key.last_validated_at },
  { header: 'Expires at', value: (key) => key.expires_at },
  { header: 'Created at', value: (key) => key.created_at },
];

/** "Export CSV" of every license key of the organization. */
export function LicenseKeysExport({ organizationId }: { organizationId: string }) {
  return (
    <ExportCsvButton
      filename="license-keys"
      columns={LICENSE_KEYS_CSV_COLUMNS}
      fetchPage={(page) => getLicenseKeys({ organization_id: organizationId, page, limit: 100 })}
    />
  );
}
