import type { CheckoutLink } from '@tessera/sdk';
import { ExportCsvButton } from '../../../components/ui/export-csv-button';
import type { CsvColumn } from '../../../lib/csv';
import { getCheckoutLinks } from '../api/get-checkout-links';

/** The columns of the checkout links export, with each link's visits and conversion. */
export const CHECKOUT_LINKS_CSV_COLUMNS: readonly CsvColumn<CheckoutLink>[] = [
  { header: 'ID', value: (link) => link.id },
  { header: 'Label', value: (link) => link.label },
  { header: 'URL', value: (link) => link.url },
  { header: 'Products', value: (link) => link.products.map((product) => product.name).join('; ') },
  { header: 'Discount ID', value: (link) => link.discount_id },
  { header: 'Visits', value: (link) => link.stats?.visits },
  { header: 'Checkouts started', value: (link) => link.stats?.checkouts_started },
  { header: 'Checkouts completed', value: (link) => link.stats?.checkouts_completed },
  { header: 'Conversion', value: (link) => link.stats?.conversion },
  { header: 'Created at', value: (link) => link.created_at },
];

/** "Export CSV" of every checkout link of the organization. */
export function CheckoutLinksExport({ organizationId }: { organizationId: string }) {
  return (
    <ExportCsvButton
      filename="checkout-links"
      columns={CHECKOUT_LINKS_CSV_COLUMNS}
      fetchPage={(page) => getCheckoutLinks({ organization_id: organizationId, page, limit: 100 })}
    />
  );
}
