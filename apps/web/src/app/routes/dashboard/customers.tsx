import { PageHeader } from '../../../components/ui/page-header';
import { CustomersExport } from '../../../features/customers/components/customers-export';
import { CustomersList } from '../../../features/customers/components/customers-list';
import { organizationPath, useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  return (
    <>
      <PageHeader
        title="Customers"
        description="Everyone who bought from you or was created by your integration."
        actions={<CustomersExport organizationId={organization.id} />}
      />
      <CustomersList organizationId={organization.id} basePath={organizationPath(organization, '/customers')} />
    </>
  );
}
