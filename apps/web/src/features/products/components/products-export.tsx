import type { Product } from '@tessera/sdk';
import { ExportCsvButton } from '../../../components/ui/export-csv-button';
import type { CsvColumn } from '../../../lib/csv';
import { getProducts } from '../api/get-products';
import { describeInterval, describePrice } from './prices';

/** The columns of the products export: ids, raw statuses and dates (ISO 8601), amounts in major units. */
export const PRODUCTS_CSV_COLUMNS: readonly CsvColumn<Product>[] = [
  { header: 'ID', value: (product) => product.id },
  { header: 'Name', value: (product) => product.name },
  { header: 'Billing', value: (product) => describeInterval(product.recurring_interval) },
  {
    header: 'Prices',
    value: (product) =>
      product.prices
        .filter((price) => !price.is_archived)
        .map(describePrice)
        .join('; '),
  },
  { header: 'Archived', value: (product) => product.is_archived },
  { header: 'Created at', value: (product) => product.created_at },
];

/** "Export CSV" of every product of the organization. */
export function ProductsExport({ organizationId }: { organizationId: string }) {
  return (
    <ExportCsvButton
      filename="products"
      columns={PRODUCTS_CSV_COLUMNS}
      fetchPage={(page) => getProducts({ organization_id: organizationId, page, limit: 100 })}
    />
  );
}
