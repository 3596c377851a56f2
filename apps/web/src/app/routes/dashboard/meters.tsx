import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/page-header';
import { MeterFormDialog } from '../../../features/meters/components/meter-form-dialog';
import { MetersList } from '../../../features/meters/components/meters-list';
import { organizationPath, useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  const navigate = useNavigate();
  const basePath = organizationPath(organization, '/meters');
  return (
    <>
      <PageHeader
        title="Meters"
        description="What your customers use, counted from the events you send: the units metered prices bill."
        actions={
          <MeterFormDialog
            organizationId={organization.id}
            trigger={(open) => <Button onClick={open}>New meter</Button>}
            onCreated={(meter) => navigate(`${basePath}/${meter.id}`)}
          />
        }
      />
      <MetersList organizationId={organization.id} basePath={basePath} />
    </>
  );
}
