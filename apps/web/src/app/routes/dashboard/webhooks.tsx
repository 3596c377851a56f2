import { PageHeader } from '../../../components/ui/page-header';
import { CreateWebhookEndpointDialog } from '../../../features/webhooks/components/create-webhook-endpoint-dialog';
import { WebhookEndpointsList } from '../../../features/webhooks/components/webhook-endpoints-list';
import { organizationPath, useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Endpoints of your servers that Tessera notifies, with a signed request, when something happens."
        actions={<CreateWebhookEndpointDialog organizationId={organization.id} />}
      />
      <WebhookEndpointsList
        organizationId={organization.id}
        basePath={organizationPath(organization, '/settings/webhooks')}
      />
    </>
  );
}
