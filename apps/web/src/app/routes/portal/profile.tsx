import { PageHeader } from '../../../components/ui/page-header';
import { Loading } from '../../../components/ui/spinner';
import { useCustomer } from '../../../features/customer-portal/api/get-customer';
import { ProfileForm } from '../../../features/customer-portal/components/profile-form';

/** `/portal/:slug/profile`: the customer's contact and billing details. */
export function Component() {
  const customer = useCustomer();
  return (
    <>
      <PageHeader title="Profile" description="Your contact details and the billing details on your invoices." />
      {customer.data ? (
        <ProfileForm key={customer.data.id} customer={customer.data} />
      ) : (
        <Loading label="Loading your profile…" />
      )}
    </>
  );
}
