import { useState } from 'react';
import { Link } from 'react-router';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { EmptyState } from '../../../components/ui/empty-state';
import { Loading } from '../../../components/ui/spinner';
import { Pagination, Table, TableHead, Td, Th, Tr } from '../../../components/ui/table';
import { formatDate } from '../../../lib/format';
import { useWebhookEndpoints } from '../api/get-webhook-endpoints';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_FORMATS } from './event-types';

export function WebhookEndpointsList({ organizationId, basePath }: { organizationId: string; basePath: string }) {
  const [page, setPage] = useState(1);
  const query = useWebhookEndpoints({ organization_id: organizationId, page, limit: 20 });

  if (query.isPending) return <Loading label="Loading webhook endpoints…" />;
  if (query.isError) return <ApiErrorAlert error={query.error} />;
  if (query.data.items.length === 0 && page === 1)
    return (
      <EmptyState
        title="No webhook endpoints yet"
        description="An endpoint receives a signed POST request when something happens: an order is paid, a subscription renews, a customer changes."
      />
    );
  return (
    <div className="space-y-3">
      <Table label="Webhook endpoints">
        <TableHead>
          <Th>URL</Th>
          <Th>Format</Th>
          <Th>Events</Th>
          <Th>Status</Th>
          <Th>Created</Th>
        </TableHead>
        <tbody>
          {query.data.items.map((endpoint) => (
            <Tr key={endpoint.id}>
              <Td className="max-w-md">
                <Link
                  className="font-mono text-sm font-medium break-all text-blue-800 underline-offset-2 hover:underline"
                  to={`${basePath}/${endpoint.id}`}
                >
                  {endpoint.url}
                </Link>
              </Td>
              <Td>{WEBHOOK_FORMATS[endpoint.format].label}</Td>
              <Td>
                {endpoint.events.length === WEBHOOK_EVENT_TYPES.length
                  ? 'All events'
                  : `${endpoint.events.length} ${endpoint.events.length === 1 ? 'event' : 'events'}`}
              </Td>
              <Td>
                {endpoint.enabled ? <Badge tone="success">Enabled</Badge> : <Badge tone="warning">Disabled</Badge>}
              </Td>
              <Td>{formatDate(endpoint.created_at)}</Td>
            </Tr>
          ))}
        </tbody>
      </Table>
      <Pagination
        page={page}
        maxPage={query.data.pagination.max_page}
        totalCount={query.data.pagination.total_count}
        onPageChange={setPage}
      />
    </div>
  );
}
