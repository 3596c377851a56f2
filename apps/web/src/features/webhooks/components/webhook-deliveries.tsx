import type { WebhookDelivery } from '@tessera/sdk';
import { Fragment, useState } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { PagedList } from '../../../components/ui/paged-list';
import { Table, TableHead, Td, Th, Tr } from '../../../components/ui/table';
import { useToast } from '../../../components/ui/toast';
import { formatDateTime } from '../../../lib/format';
import { useWebhookDeliveries } from '../api/get-webhook-deliveries';
import { useRedeliverWebhookEvent } from '../api/redeliver-webhook-event';
import { payloadEventType, prettyPayload } from './event-types';

function DeliveryDetails({ delivery, id }: { delivery: WebhookDelivery; id: string }) {
  return (
    <div id={id} className="grid gap-4 lg:grid-cols-2">
      <section aria-label="Payload">
        <h3 className="mb-1 text-xs font-semibold tracking-wide text-slate-600 uppercase">Payload</h3>
        <pre className="max-h-96 overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs whitespace-pre-wrap text-slate-100">
          {prettyPayload(delivery.webhook_event.payload)}
        </pre>
      </section>
      <section aria-label="Response">
        <h3 className="mb-1 text-xs font-semibold tracking-wide text-slate-600 uppercase">
          Response {delivery.http_code !== null ? `(HTTP ${delivery.http_code})` : ''}
        </h3>
        <pre className="max-h-96 overflow-auto rounded-md bg-slate-100 p-3 font-mono text-xs whitespace-pre-wrap text-slate-900">
          {delivery.response || 'The endpoint answered with an empty body.'}
        </pre>
      </section>
    </div>
  );
}

/** The delivery log of one endpoint, newest first: every attempt, with its request and response. */
export function WebhookDeliveries({ endpointId }: { endpointId: string }) {
  const [page, setPage] = useState(1);
  const [expanded, setExpanded] = useState<string | null>(null);
  const query = useWebhookDeliveries({ endpoint_id: endpointId, page, limit: 20 });
  const redeliver = useRedeliverWebhookEvent();
  const toast = useToast();

  return (
    <div className="space-y-3">
      <ApiErrorAlert error={redeliver.error} />
      <PagedList
        query={query}
        label="Deliveries"
        loadingLabel="Loading deliveries…"
        page={page}
        onPageChange={setPage}
        empty={
          <EmptyState
            title="No deliveries yet"
            description="Each attempt to send an event to this endpoint appears here with the answer it got. The log refreshes by itself."
          />
        }
      >
        {(deliveries) => (
          <Table label="Webhook deliveries">
            <TableHead>
              <Th>Event</Th>
              <Th>Result</Th>
              <Th>Status code</Th>
              <Th>Sent</Th>
              <Th>
                <span className="sr-only">Actions</span>
              </Th>
            </TableHead>
            <tbody>
              {deliveries.map((delivery) => {
                const type = payloadEventType(delivery.webhook_event.payload) ?? 'Event';
                const isExpanded = expanded === delivery.id;
                const detailsId = `delivery-${delivery.id}`;
                const eventId = delivery.webhook_event.id;
                return (
                  <Fragment key={delivery.id}>
                    <Tr>
                      <Td className="font-mono text-xs">{type}</Td>
                      <Td>
                        {delivery.succeeded ? (
                          <Badge tone="success">Succeeded</Badge>
                        ) : (
                          <Badge tone="danger">Failed</Badge>
                        )}
                      </Td>
                      <Td>{delivery.http_code ?? 'No answer'}</Td>
                      <Td>{formatDateTime(delivery.created_at)}</Td>
                      <Td className="space-x-2 text-right whitespace-nowrap">
                        <Button
                          variant="secondary"
                          size="sm"
                          aria-expanded={isExpanded}
                          aria-controls={isExpanded ? detailsId : undefined}
                          aria-label={`${isExpanded ? 'Hide' : 'Show'} details of ${type} sent ${formatDateTime(delivery.created_at)}`}
                          onClick={() => setExpanded(isExpanded ? null : delivery.id)}
                        >
                          {isExpanded ? 'Hide details' : 'Details'}
                        </Button>
                        <Button
                          variant="secondary"
                          size="sm"
                          aria-label={`Redeliver ${type} sent ${formatDateTime(delivery.created_at)}`}
                          isPending={redeliver.isPending && redeliver.variables === eventId}
                          onClick={() =>
                            redeliver.mutate(eventId, {
                              onSuccess: () => toast(`${type} queued for redelivery; it appears in the log once sent.`),
                            })
                          }
                        >
                          Redeliver
                        </Button>
                      </Td>
                    </Tr>
                    {isExpanded && (
                      <tr className="border-b border-slate-100 bg-slate-50">
                        <td colSpan={5} className="px-4 py-4">
                          <DeliveryDetails delivery={delivery} id={detailsId} />
                        </td>
                      </tr>
                    )}
                  </Fragment>
                );
              })}
            </tbody>
          </Table>
        )}
      </PagedList>
    </div>
  );
}
