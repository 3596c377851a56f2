import { PageHeader } from '../../../components/ui/page-header';
import { BenefitsList } from '../../../features/benefits/components/benefits-list';
import { CreateBenefitDialog } from '../../../features/benefits/components/create-benefit-dialog';
import { useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  return (
    <>
      <PageHeader
        title="Benefits"
        description="What customers receive with a product."
        actions={<CreateBenefitDialog organizationId={organization.id} />}
      />
      <BenefitsList organizationId={organization.id} />
    </>
  );
}
