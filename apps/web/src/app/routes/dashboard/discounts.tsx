import { Button } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/page-header';
import { DiscountFormDialog } from '../../../features/discounts/components/discount-form-dialog';
import { DiscountsList } from '../../../features/discounts/components/discounts-list';
import { useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  return (
    <>
      <PageHeader
        title="Discounts"
        description="Codes and automatic discounts for checkouts."
        actions={
          <DiscountFormDialog
            organizationId={organization.id}
            trigger={(open) => <Button onClick={open}>New discount</Button>}
          />
        }
      />
      <DiscountsList organizationId={organization.id} />
    </>
  );
}
