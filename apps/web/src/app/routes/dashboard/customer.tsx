import { Link, useParams } from 'react-router';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { PageHeader } from '../../../components/ui/page-header';
import { Loading } from '../../../components/ui/spinner';
import { useCustomer } from '../../../features/customers/api/get-customer';
import { CustomerDetails } from '../../../features/customers/components/customer-details';
import { organizationPath, useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  const { customerId = '' } = useParams();
  const customer = useCustomer(customerId);
  if (customer.isPending) return <Loading label="Loading customer…" />;
  if (customer.isError) return <ApiErrorAlert error={customer.error} />;
  return (
    <>
      <Link className="text-sm font-medium text-blue-800 underline" to={organizationPath(organization, '/customers')}>
        ← Customers
      </Link>
      <div className="mt-3">
        <PageHeader title={customer.data.name ?? customer.data.email} description={customer.data.email} />
      </div>
      <CustomerDetails customer={customer.data} />
    </>
  );
}
