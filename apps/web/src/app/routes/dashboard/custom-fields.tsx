import { Button } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/page-header';
import { CustomFieldFormDialog } from '../../../features/custom-fields/components/custom-field-form-dialog';
import { CustomFieldsList } from '../../../features/custom-fields/components/custom-fields-list';
import { useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  return (
    <>
      <PageHeader
        title="Custom fields"
        description="Questions asked at checkout. Attach them to products to collect the answers with each order."
        actions={
          <CustomFieldFormDialog
            organizationId={organization.id}
            trigger={(open) => <Button onClick={open}>New custom field</Button>}
          />
        }
      />
      <CustomFieldsList organizationId={organization.id} />
    </>
  );
}
