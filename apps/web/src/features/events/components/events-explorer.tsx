import { useState, type ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { PagedTable, usePage } from '../../../components/ui/paged-list';
import { Select } from '../../../components/ui/select';
import { TextLink } from '../../../components/ui/text-link';
import { formatDateTime } from '../../../lib/format';
import { useEventNames } from '../api/get-event-names';
import { useEvents } from '../api/get-events';
import { eventsRequest, metadataSummary, NO_FILTERS, type EventFilters } from '../logic/events-query';

const ANY = 'any';

const SOURCES = [
  { value: ANY, label: 'Any source' },
  { value: 'user', label: 'Sent by you' },
  { value: 'system', label: 'Recorded by Tessera' },
];

export interface EventsExplorerProps {
  organizationId: string;
  /** The organization's dashboard path: events and customers link below it. */
  dashboardPath: string;
  /** Only the events of this customer: set by a customer filter of the page. */
  customerId?: string;
  /** Only the events this meter counts, and its name (from the page's address). */
  meter?: { id: string; name: string; onClear(): void };
  /** Filters composed by the page (a customer picker), shown before the explorer's own. */
  filters?: ReactNode;
}

/** The events the organization sent or Tessera recorded, newest first, narrowed by the filters. */
export function EventsExplorer({ organizationId, dashboardPath, customerId, meter, filters }: EventsExplorerProps) {
  const [own, setOwn] = useState<EventFilters>(NO_FILTERS);
  const set = (patch: Partial<EventFilters>) => setOwn({ ...own, ...patch });
  const current: EventFilters = { ...own, customerId: customerId ?? '', meterId: meter?.id ?? '' };
  const [page, setPage] = usePage(JSON.stringify(current));
  const built = eventsRequest(current, organizationId, page);
  const names = useEventNames({ organization_id: organizationId, limit: 100, sorting: ['name'] });
  const query = useEvents('request' in built ? built.request : null);
  const isFiltered = JSON.stringify(current) !== JSON.stringify(NO_FILTERS);
  const nameOptions = [
    { value: ANY, label: 'Any name' },
    ...[...new Set((names.data?.items ?? []).map((name) => name.name))].map((name) => ({ value: name, label: name })),
  ];

  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {filters}
        <Field label="Event name">
          <Select
            value={own.name || ANY}
            options={nameOptions}
            onValueChange={(value) => set({ name: value === ANY ? '' : value })}
          />
        </Field>
        <Field label="Source">
          <Select
            value={own.source || ANY}
            options={SOURCES}
            onValueChange={(value) => set({ source: value === ANY ? '' : (value as EventFilters['source']) })}
          />
        </Field>
        <Field label="From" hint="Day (UTC), included.">
          <Input type="date" value={own.from} onChange={(event) => set({ from: event.target.value })} />
        </Field>
        <Field label="To" hint="Day (UTC), included.">
          <Input type="date" value={own.to} onChange={(event) => set({ to: event.target.value })} />
        </Field>
        <Field label="Metadata key" hint="Search the events whose metadata has this key…">
          <Input
            value={own.metadataKey}
            placeholder="region"
            onChange={(event) => set({ metadataKey: event.target.value })}
          />
        </Field>
        <Field label="Metadata value contains" hint="…holding this text (case-sensitive).">
          <Input
            type="search"
            value={own.metadataText}
            onChange={(event) => set({ metadataText: event.target.value })}
          />
        </Field>
      </div>
      {meter && (
        <p className="flex flex-wrap items-center gap-2 rounded-md border border-blue-200 bg-blue-50 px-3 py-2 text-sm text-blue-900">
          Only the events counted by the meter <strong>{meter.name}</strong>.
          <Button variant="secondary" size="sm" onClick={meter.onClear}>
            Show all events
          </Button>
        </p>
      )}
      {'problem' in built ? (
        <Alert tone="error" title="These filters cannot be applied">
          {built.problem}
        </Alert>
      ) : (
        <PagedTable
          query={query}
          loadingLabel="Loading events…"
          page={page}
          onPageChange={setPage}
          empty={
            isFiltered ? (
              <EmptyState title="No matching events" description="No event matches these filters." />
            ) : (
              <EmptyState
                title="No events yet"
                description="Send usage events to POST /v1/events/ingest with an organization access token (scope events:write): each names a customer, an event name and metadata. Tessera also records events of its own here, such as meter credits and resets."
              />
            )
          }
          label="Events"
          columns={[
            {
              header: 'Time',
              cell: (event) => (
                <TextLink to={`${dashboardPath}/events/${event.id}`}>{formatDateTime(event.timestamp)}</TextLink>
              ),
            },
            { header: 'Name', className: 'font-mono text-xs', cell: (event) => event.name },
            {
              header: 'Source',
              cell: (event) =>
                event.source === 'user' ? <Badge>Sent by you</Badge> : <Badge tone="info">Tessera</Badge>,
            },
            {
              header: 'Customer',
              cell: (event) =>
                event.customer ? (
                  <TextLink to={`${dashboardPath}/customers/${event.customer.id}`}>{event.customer.email}</TextLink>
                ) : event.external_customer_id ? (
                  <span className="font-mono text-xs" title="External customer ID, no customer has it yet">
                    {event.external_customer_id}
                  </span>
                ) : (
                  '—'
                ),
            },
            {
              header: 'Metadata',
              className: 'max-w-xs truncate font-mono text-xs text-slate-700',
              cell: (event) => metadataSummary(event.metadata),
            },
          ]}
        />
      )}
    </div>
  );
}
