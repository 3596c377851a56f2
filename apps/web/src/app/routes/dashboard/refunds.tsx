import { PageHeader } from '../../../components/ui/page-header';
import { RefundsExport } from '../../../features/refunds/components/refunds-export';
import { RefundsList } from '../../../features/refunds/components/refunds-list';
import { organizationPath, useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  return (
    <>
      <PageHeader
        title="Refunds"
        description="Money given back to customers: refund an order from its page, in full or in part."
        actions={<RefundsExport organizationId={organization.id} />}
      />
      <RefundsList organizationId={organization.id} dashboardPath={organizationPath(organization)} />
    </>
  );
}
