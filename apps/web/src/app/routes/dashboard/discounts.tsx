import { Button } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/page-header';
import { DiscountFormDialog } from '../../../features/discounts/components/discount-form-dialog';
import { DiscountsExport } from '../../../features/discounts/components/discounts-export';
import { DiscountsList } from '../../../features/discounts/components/discounts-list';
import { useProducts } from '../../../features/products/api/get-products';
import { useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  // The products a discount can be limited to; loaded here so the discounts feature stays on its own.
  const products = useProducts({ organization_id: organization.id, is_archived: false, limit: 100, sorting: ['name'] });
  const productOptions = (products.data?.items ?? []).map((product) => ({ value: product.id, label: product.name }));
  return (
    <>
      <PageHeader
        title="Discounts"
        description="Codes and automatic discounts for checkouts."
        actions={
          <>
            <DiscountsExport organizationId={organization.id} />
            <DiscountFormDialog
              organizationId={organization.id}
              productOptions={productOptions}
              trigger={(open) => <Button onClick={open}>New discount</Button>}
            />
          </>
        }
      />
      <DiscountsList organizationId={organization.id} productOptions={productOptions} />
    </>
  );
}
