import { useNavigate, useParams } from 'react-router';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { PageHeader } from '../../../components/ui/page-header';
import { Loading } from '../../../components/ui/spinner';
import { useToast } from '../../../components/ui/toast';
import { useProduct } from '../../../features/products/api/get-product';
import { ProductForm } from '../../../features/products/components/product-form';
import { organizationPath, useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  const { productId = '' } = useParams();
  const product = useProduct(productId);
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
        onSaved={(saved) => {
          toast(`Product “${saved.name}” saved`);
          navigate(organizationPath(organization, '/products'));
        }}
      />
    </>
  );
}
