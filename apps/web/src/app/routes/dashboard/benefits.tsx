import { Button } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/page-header';
import { BenefitFormDialog } from '../../../features/benefits/components/benefit-form-dialog';
import { BenefitsList } from '../../../features/benefits/components/benefits-list';
import { useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  return (
    <>
      <PageHeader
        title="Benefits"
        description="What customers receive with a product."
        actions={
          <BenefitFormDialog
            organizationId={organization.id}
            trigger={(open) => <Button onClick={open}>New benefit</Button>}
          />
        }
      />
      <BenefitsList organizationId={organization.id} />
    </>
  );
}
