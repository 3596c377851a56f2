import type { Discount } from '@tessera/sdk';
import { ExportCsvButton } from '../../../components/ui/export-csv-button';
import type { CsvColumn } from '../../../lib/csv';
import { toMajorUnits } from '../../../lib/format';
import { getDiscounts } from '../api/get-discounts';

/** The columns of the discounts export: a percentage as a percent, a fixed amount in major units. */
export const DISCOUNTS_CSV_COLUMNS: readonly CsvColumn<Discount>[] = [
  { header: 'ID', value: (discount) => discount.id },
  { header: 'Name', value: (discount) => discount.name },
  { header: 'Code', value: (discount) => discount.code },
  { header: 'Type', value: (discount) => discount.type },
  { header: 'Percent', value: (discount) => ('basis_points' in discount ? discount.basis_points / 100 : null) },
  { header: 'Currency', value: (discount) => ('currency' in discount ? discount.currency.toUpperCase() : null) },
  {
    header: 'Amount',
    value: (discount) => ('amount' in discount ? toMajorUnits(discount.amount, discount.currency) : null),
  },
  { header: 'Duration', value: (discount) => discount.duration },
  {
    header: 'Duration in months',
    value: (discount) => ('duration_in_months' in discount ? discount.duration_in_months : null),
  },
  { header: 'Starts at', value: (discount) => discount.starts_at },
  { header: 'Ends at', value: (discount) => discount.ends_at },
  { header: 'Max redemptions', value: (discount) => discount.max_redemptions },
  { header: 'Redemptions', value: (discount) => discount.redemptions_count },
  { header: 'Products', value: (discount) => discount.products.map((product) => product.name).join('; ') },
  { header: 'Created at', value: (discount) => discount.created_at },
];

/** "Export CSV" of every discount of the organization. */
export function DiscountsExport({ organizationId }: { organizationId: string }) {
  return (
    <ExportCsvButton
      filename="discounts"
      columns={DISCOUNTS_CSV_COLUMNS}
      fetchPage={(page) => getDiscounts({ organization_id: organizationId, page, limit: 100 })}
    />
  );
}
