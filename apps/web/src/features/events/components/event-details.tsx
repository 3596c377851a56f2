import type { Event } from '@tessera/sdk';
import { Badge } from '../../../components/ui/badge';
import { Card, CardTitle } from '../../../components/ui/card';
import { DetailRow } from '../../../components/ui/detail-row';
import { TextLink } from '../../../components/ui/text-link';
import { formatDateTime } from '../../../lib/format';

export interface EventDetailsProps {
  event: Event;
  /** The organization's dashboard path: the customer links below it. */
  dashboardPath: string;
}

/** One event: who it is for, when it happened, and its metadata as sent. */
export function EventDetails({ event, dashboardPath }: EventDetailsProps) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card>
        <CardTitle>Event</CardTitle>
        <dl className="divide-y divide-slate-100">
          <DetailRow label="Name">
            <code className="font-mono text-xs">{event.name}</code>
          </DetailRow>
          <DetailRow label="Source">
            {event.source === 'user' ? <Badge>Sent by you</Badge> : <Badge tone="info">Recorded by Tessera</Badge>}
          </DetailRow>
          <DetailRow label="Time">{formatDateTime(event.timestamp)}</DetailRow>
          <DetailRow label="Customer">
            {event.customer ? (
              <TextLink to={`${dashboardPath}/customers/${event.customer.id}`}>{event.customer.email}</TextLink>
            ) : (
              'No customer yet'
            )}
          </DetailRow>
          <DetailRow label="External customer ID">
            {event.external_customer_id ? (
              <code className="font-mono text-xs break-all">{event.external_customer_id}</code>
            ) : (
              '—'
            )}
          </DetailRow>
          <DetailRow label="Event ID">
            <code className="font-mono text-xs break-all">{event.id}</code>
          </DetailRow>
        </dl>
      </Card>
      <Card>
        <CardTitle>Metadata</CardTitle>
        {Object.keys(event.metadata).length === 0 ? (
          <p className="text-sm text-slate-600">This event has no metadata.</p>
        ) : (
          <pre
            tabIndex={0}
            aria-label="Metadata as JSON"
            className="overflow-x-auto rounded-md bg-slate-50 p-3 font-mono text-xs text-slate-800"
          >
            {JSON.stringify(event.metadata, null, 2)}
          </pre>
        )}
      </Card>
    </div>
  );
}
