import { PageHeader } from '../../../components/ui/page-header';
import { TaxReportView } from '../../../features/tax/components/tax-report-view';
import { useCurrentOrganization } from './current-organization';

/** The tax report a seller files a return from: per period and jurisdiction, and as CSV. */
export function Component() {
  const organization = useCurrentOrganization();
  return (
    <>
      <PageHeader
        title="Tax report"
        description="Taxable sales, tax collected and refunded per jurisdiction, for a period."
      />
      <TaxReportView organizationId={organization.id} />
    </>
  );
}
