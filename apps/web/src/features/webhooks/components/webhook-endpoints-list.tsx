import { useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { EmptyState } from '../../../components/ui/empty-state';
import { PagedTable } from '../../../components/ui/paged-list';
import { TextLink } from '../../../components/ui/text-link';
import { formatDate } from '../../../lib/format';
import { useWebhookEndpoints } from '../api/get-webhook-endpoints';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_FORMATS } from './event-types';

export function WebhookEndpointsList({ organizationId, basePath }: { organizationId: string; basePath: string }) {
  const [page, setPage] = useState(1);
  const query = useWebhookEndpoints({ organization_id: organizationId, page, limit: 20 });

  return (
    <div className="space-y-3">
      <PagedTable
        query={query}
        loadingLabel="Loading webhook endpoints…"
        page={page}
        onPageChange={setPage}
        empty={
          <EmptyState
            title="No webhook endpoints yet"
            description="An endpoint receives a signed POST request when something happens: an order is paid, a subscription renews, a customer changes."
          />
        }
        label="Webhook endpoints"
        columns={[
          {
            header: 'URL',
            className: 'max-w-md',
            cell: (endpoint) => (
              <TextLink className="font-mono text-sm break-all" to={`${basePath}/${endpoint.id}`}>
                {endpoint.url}
              </TextLink>
            ),
          },
          { header: 'Format', cell: (endpoint) => WEBHOOK_FORMATS[endpoint.format].label },
          {
            header: 'Events',
            cell: (endpoint) =>
              endpoint.events.length === WEBHOOK_EVENT_TYPES.length
                ? 'All events'
                : `${endpoint.events.length} ${endpoint.events.length === 1 ? 'event' : 'events'}`,
          },
          {
            header: 'Status',
            cell: (endpoint) =>
              endpoint.enabled ? <Badge tone="success">Enabled</Badge> : <Badge tone="warning">Disabled</Badge>,
          },
          { header: 'Created', cell: (endpoint) => formatDate(endpoint.created_at) },
        ]}
      />
    </div>
  );
}
