import { Button } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/page-header';
import { BenefitFormDialog } from '../../../features/benefits/components/benefit-form-dialog';
import { BenefitsList } from '../../../features/benefits/components/benefits-list';
import { DiscordConnectReturn } from '../../../features/benefits/components/discord-connect-return';
import { useMeters } from '../../../features/meters/api/get-meters';
import { useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  // Meter credits pick their meter by name; the meters come from their own feature.
  const meters = useMeters({ organization_id: organization.id, limit: 100, sorting: ['name'] });
  const meterOptions = (meters.data?.items ?? []).map((meter) => ({ value: meter.id, label: meter.name }));
  return (
    <>
      <PageHeader
        title="Benefits"
        description="What customers receive with a product."
        actions={
          <BenefitFormDialog
            organizationId={organization.id}
            trigger={(open) => <Button onClick={open}>New benefit</Button>}
            meterOptions={meterOptions}
          />
        }
      />
      <DiscordConnectReturn organizationId={organization.id} meterOptions={meterOptions} />
      <BenefitsList organizationId={organization.id} meterOptions={meterOptions} />
    </>
  );
}
