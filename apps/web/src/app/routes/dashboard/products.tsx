import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/page-header';
import { ProductsExport } from '../../../features/products/components/products-export';
import { ProductsList } from '../../../features/products/components/products-list';
import { organizationPath, useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  const basePath = organizationPath(organization, '/products');
  return (
    <>
      <PageHeader
        title="Products"
        description="What you sell, with its prices and billing interval."
        actions={
          <>
            <ProductsExport organizationId={organization.id} />
            <Button asChild>
              <Link to={`${basePath}/new`}>New product</Link>
            </Button>
          </>
        }
      />
      <ProductsList organizationId={organization.id} basePath={basePath} />
    </>
  );
}
