import { PageHeader } from '../../../components/ui/page-header';
import { PaymentsExport } from '../../../features/payments/components/payments-export';
import { PaymentsList } from '../../../features/payments/components/payments-list';
import { organizationPath, useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  return (
    <>
      <PageHeader
        title="Payments"
        description="Every charge attempt on your customers' payment methods, succeeded or declined."
        actions={<PaymentsExport organizationId={organization.id} />}
      />
      <PaymentsList organizationId={organization.id} dashboardPath={organizationPath(organization)} />
    </>
  );
}
