import { useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { EmptyState } from '../../../components/ui/empty-state';
import { PagedTable, SearchField, usePage } from '../../../components/ui/paged-list';
import { formatDateTime } from '../../../lib/format';
import { useEventNames } from '../api/get-event-names';

type Sorting =
  'name' | '-name' | 'occurrences' | '-occurrences' | 'first_seen' | '-first_seen' | 'last_seen' | '-last_seen';

/** Each event name of the organization, with how often and when it was seen. */
export function EventNamesList({ organizationId }: { organizationId: string }) {
  const [search, setSearch] = useState('');
  const [sorting, setSorting] = useState<Sorting>('-occurrences');
  const [page, setPage] = usePage(`${search}|${sorting}`);
  const query = useEventNames({
    organization_id: organizationId,
    query: search.trim() || undefined,
    sorting: [sorting],
    page,
    limit: 10,
  });
  // A name is a row per source (a name sent by you and recorded by Tessera are two rows).
  const rows = {
    ...query,
    data: query.data && {
      ...query.data,
      items: query.data.items.map((row) => ({ ...row, id: `${row.source}:${row.name}` })),
    },
  };
  return (
    <div className="space-y-3">
      <SearchField label="Search event names" placeholder="Name" value={search} onChange={setSearch} />
      <PagedTable
        query={rows}
        loadingLabel="Loading event names…"
        page={page}
        onPageChange={setPage}
        empty={
          search.trim() ? (
            <EmptyState title="No matching names" description="No event name contains this text." />
          ) : (
            <EmptyState
              title="No events yet"
              description="The names of the events you send appear here with their counts."
            />
          )
        }
        label="Event names"
        sorting={sorting}
        onSortingChange={setSorting}
        columns={[
          { header: 'Name', sortField: 'name', className: 'font-mono text-xs', cell: (row) => row.name },
          {
            header: 'Source',
            cell: (row) => (row.source === 'user' ? <Badge>Sent by you</Badge> : <Badge tone="info">Tessera</Badge>),
          },
          {
            header: 'Occurrences',
            sortField: 'occurrences',
            align: 'right',
            cell: (row) => row.occurrences.toLocaleString(),
          },
          { header: 'First seen', sortField: 'first_seen', cell: (row) => formatDateTime(row.first_seen) },
          { header: 'Last seen', sortField: 'last_seen', cell: (row) => formatDateTime(row.last_seen) },
        ]}
      />
    </div>
  );
}
