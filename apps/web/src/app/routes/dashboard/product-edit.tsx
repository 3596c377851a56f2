import { useNavigate, useParams } from 'react-router';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { PageHeader } from '../../../components/ui/page-header';
import { Loading } from '../../../components/ui/spinner';
import { useToast } from '../../../components/ui/toast';
import { useAllBenefits } from '../../../features/benefits/api/get-all-benefits';
import { useCustomFields } from '../../../features/custom-fields/api/get-custom-fields';
import { useMeters } from '../../../features/meters/api/get-meters';
import { useProduct } from '../../../features/products/api/get-product';
import { ProductForm } from '../../../features/products/components/product-form';
import { organizationPath, useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  const { productId = '' } = useParams();
  const product = useProduct(productId);
  // What a product can carry, composed here so the products feature does not reach into other features.
  const benefits = useAllBenefits(organization.id);
  const customFields = useCustomFields({ organization_id: organization.id, limit: 100, sorting: ['name'] });
  const meters = useMeters({ organization_id: organization.id, limit: 100, sorting: ['name'] });
  const navigate = useNavigate();
  const toast = useToast();
  if (product.isPending) return <Loading label="Loading product…" />;
  if (product.isError) return <ApiErrorAlert error={product.error} />;
  return (
    <>
      <PageHeader
        title={product.data.name}
        description="Prices are kept as they are; to change one, remove it and add a new price."
        actions={product.data.is_archived ? <Badge>Archived</Badge> : undefined}
      />
      <ProductForm
        key={product.data.id}
        organizationId={organization.id}
        product={product.data}
        benefits={{ items: benefits.data, error: benefits.error }}
        customFields={{ items: customFields.data?.items, error: customFields.error }}
        meterOptions={(meters.data?.items ?? []).map((meter) => ({ value: meter.id, label: meter.name }))}
        benefitsPath={organizationPath(organization, '/benefits')}
        customFieldsPath={organizationPath(organization, '/settings/custom-fields')}
        onSaved={(saved) => {
          toast(`Product “${saved.name}” saved`);
          navigate(organizationPath(organization, '/products'));
        }}
      />
    </>
  );
}
