import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { useToast } from '../../../components/ui/toast';
import { useAllBenefits } from '../../../features/benefits/api/get-all-benefits';
import { useCustomFields } from '../../../features/custom-fields/api/get-custom-fields';
import { useMeters } from '../../../features/meters/api/get-meters';
import { ProductForm } from '../../../features/products/components/product-form';
import { organizationPath, useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  // What a product can carry, composed here so the products feature does not reach into other features.
  const benefits = useAllBenefits(organization.id);
  const customFields = useCustomFields({ organization_id: organization.id, limit: 100, sorting: ['name'] });
  const meters = useMeters({ organization_id: organization.id, limit: 100, sorting: ['name'] });
  const navigate = useNavigate();
  const toast = useToast();
  return (
    <>
      <PageHeader
        title="New product"
        description="Set a name, how it is billed and at least one price; attach benefits and checkout questions."
      />
      <ProductForm
        organizationId={organization.id}
        benefits={{ items: benefits.data, error: benefits.error }}
        customFields={{ items: customFields.data?.items, error: customFields.error }}
        meterOptions={(meters.data?.items ?? []).map((meter) => ({ value: meter.id, label: meter.name }))}
        benefitsPath={organizationPath(organization, '/benefits')}
        customFieldsPath={organizationPath(organization, '/settings/custom-fields')}
        onSaved={(product) => {
          toast(`Product “${product.name}” created`);
          navigate(organizationPath(organization, '/products'));
        }}
      />
    </>
  );
}
