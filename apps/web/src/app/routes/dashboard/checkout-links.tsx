import { Link } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { PageHeader } from '../../../components/ui/page-header';
import { CheckoutLinksExport } from '../../../features/checkout-links/components/checkout-links-export';
import { CheckoutLinksList } from '../../../features/checkout-links/components/checkout-links-list';
import { CreateCheckoutLinkDialog } from '../../../features/checkout-links/components/create-checkout-link-dialog';
import { useDiscounts } from '../../../features/discounts/api/get-discounts';
import { useProducts } from '../../../features/products/api/get-products';
import { organizationPath, useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  // The link form offers this organization's active products and its discounts; composed here so the
  // checkout-links feature does not reach into other features.
  const products = useProducts({ organization_id: organization.id, is_archived: false, limit: 100, sorting: ['name'] });
  const discounts = useDiscounts({ organization_id: organization.id, limit: 100, sorting: ['name'] });
  const productOptions = (products.data?.items ?? []).map((product) => ({ value: product.id, label: product.name }));
  const discountOptions = (discounts.data?.items ?? []).map((discount) => ({
    value: discount.id,
    label: discount.name,
  }));
  return (
    <>
      <PageHeader
        title="Checkout links"
        description="Shareable URLs that open a checkout for chosen products."
        actions={
          <>
            <CheckoutLinksExport organizationId={organization.id} />
            <CreateCheckoutLinkDialog productOptions={productOptions} discountOptions={discountOptions} />
          </>
        }
      />
      {products.isSuccess && productOptions.length === 0 && (
        <div className="mb-4">
          <Alert tone="info" title="Create a product first">
            A checkout link sells at least one product.{' '}
            <Link className="font-medium underline" to={organizationPath(organization, '/products/new')}>
              Create a product
            </Link>
          </Alert>
        </div>
      )}
      <CheckoutLinksList
        organizationId={organization.id}
        productOptions={productOptions}
        discountOptions={discountOptions}
      />
    </>
  );
}
