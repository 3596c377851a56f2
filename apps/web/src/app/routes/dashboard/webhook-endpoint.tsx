import { Link, useParams } from 'react-router';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { PageHeader } from '../../../components/ui/page-header';
import { Loading } from '../../../components/ui/spinner';
import { useWebhookEndpoint } from '../../../features/webhooks/api/get-webhook-endpoint';
import { SendTestEvent } from '../../../features/webhooks/components/send-test-event';
import { WebhookDeliveries } from '../../../features/webhooks/components/webhook-deliveries';
import {
  DeleteWebhookEndpoint,
  WebhookEndpointForm,
  WebhookEndpointSecret,
  WebhookEndpointStatus,
} from '../../../features/webhooks/components/webhook-endpoint-settings';
import { organizationPath, useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  const { endpointId = '' } = useParams();
  const endpoint = useWebhookEndpoint(endpointId);
  const listPath = organizationPath(organization, '/settings/webhooks');
  const back = (
    <Link className="text-sm font-medium text-blue-800 underline" to={listPath}>
      ← Webhooks
    </Link>
  );
  if (endpoint.isPending) return <Loading label="Loading webhook endpoint…" />;
  if (endpoint.isError)
    return (
      <div className="space-y-4">
        {back}
        <ApiErrorAlert error={endpoint.error} />
      </div>
    );
  const data = endpoint.data;
  return (
    <>
      {back}
      <div className="mt-3">
        <PageHeader title="Webhook endpoint" description={data.url} />
      </div>
      <div className="grid gap-6 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <WebhookEndpointForm key={data.id} endpoint={data} />
        <div className="space-y-6">
          <WebhookEndpointStatus endpoint={data} />
          <SendTestEvent endpoint={data} />
          <WebhookEndpointSecret endpoint={data} />
          <DeleteWebhookEndpoint endpoint={data} listPath={listPath} />
        </div>
      </div>
      <section aria-labelledby="deliveries-heading" className="mt-8 space-y-3">
        <h2 id="deliveries-heading" className="text-lg font-semibold text-slate-900">
          Deliveries
        </h2>
        <WebhookDeliveries endpointId={data.id} />
      </section>
    </>
  );
}
