import { useState } from 'react';
import { EmptyState } from '../../../components/ui/empty-state';
import { PagedTable, SearchField, usePage } from '../../../components/ui/paged-list';
import { TextLink } from '../../../components/ui/text-link';
import { formatDate } from '../../../lib/format';
import { useMeters } from '../api/get-meters';
import { describeAggregation, describeFilter } from '../logic/meter-definition';

type Sorting = 'name' | '-name' | 'created_at' | '-created_at';

export interface MetersListProps {
  organizationId: string;
  /** The path of the meters page: a meter opens below it. */
  basePath: string;
}

export function MetersList({ organizationId, basePath }: MetersListProps) {
  const [search, setSearch] = useState('');
  const [sorting, setSorting] = useState<Sorting>('name');
  const [page, setPage] = usePage(`${search}|${sorting}`);
  const query = useMeters({
    organization_id: organizationId,
    query: search.trim() || undefined,
    page,
    limit: 20,
    sorting: [sorting],
  });

  return (
    <div className="space-y-4">
      <SearchField label="Search meters" placeholder="Name" value={search} onChange={setSearch} />
      <PagedTable
        query={query}
        loadingLabel="Loading meters…"
        page={page}
        onPageChange={setPage}
        empty={
          search.trim() ? (
            <EmptyState title="No matching meters" description="No meter has a name containing this text." />
          ) : (
            <EmptyState
              title="No meters yet"
              description="A meter counts the usage events your application sends (API calls, tokens, storage), per customer. A metered price then bills what it counts at each renewal."
            />
          )
        }
        label="Meters"
        sorting={sorting}
        onSortingChange={setSorting}
        columns={[
          {
            header: 'Name',
            sortField: 'name',
            cell: (meter) => <TextLink to={`${basePath}/${meter.id}`}>{meter.name}</TextLink>,
          },
          {
            header: 'Counts',
            className: 'max-w-md text-sm text-slate-700',
            cell: (meter) => (
              <>
                <span className="block">{describeAggregation(meter.aggregation)}</span>
                <span className="block font-mono text-xs break-words text-slate-600">
                  {describeFilter(meter.filter)}
                </span>
              </>
            ),
          },
          { header: 'Created', sortField: 'created_at', cell: (meter) => formatDate(meter.created_at) },
        ]}
      />
    </div>
  );
}
