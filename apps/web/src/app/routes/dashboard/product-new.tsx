import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { useToast } from '../../../components/ui/toast';
import { ProductForm } from '../../../features/products/components/product-form';
import { organizationPath, useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  const navigate = useNavigate();
  const toast = useToast();
  return (
    <>
      <PageHeader title="New product" description="Set a name, how it is billed and at least one price." />
      <ProductForm
        organizationId={organization.id}
        onSaved={(product) => {
          toast(`Product “${product.name}” created`);
          navigate(organizationPath(organization, '/products'));
        }}
      />
    </>
  );
}
