import { useState } from 'react';
import { EmptyState } from '../../../components/ui/empty-state';
import { PagedTable, SearchField, usePage } from '../../../components/ui/paged-list';
import { TextLink } from '../../../components/ui/text-link';
import { formatDate } from '../../../lib/format';
import { useCustomers } from '../api/get-customers';

type Sorting = 'created_at' | '-created_at' | 'email' | '-email' | 'name' | '-name';

export function CustomersList({ organizationId, basePath }: { organizationId: string; basePath: string }) {
  const [search, setSearch] = useState('');
  const [page, setPage] = usePage(search);
  const [sorting, setSorting] = useState<Sorting>('-created_at');
  const query = useCustomers({
    organization_id: organizationId,
    query: search.trim() || undefined,
    page,
    limit: 20,
    sorting: [sorting],
  });

  return (
    <div className="space-y-4">
      <SearchField label="Search customers" placeholder="Email or name" value={search} onChange={setSearch} />
      <PagedTable
        query={query}
        loadingLabel="Loading customers…"
        page={page}
        onPageChange={setPage}
        empty={
          search.trim() ? (
            <EmptyState title="No matching customers" description="Nobody matches this search." />
          ) : (
            <EmptyState
              title="No customers yet"
              description="Customers appear here after their first checkout, or when your integration creates them through the API."
            />
          )
        }
        label="Customers"
        sorting={sorting}
        onSortingChange={setSorting}
        columns={[
          {
            header: 'Email',
            sortField: 'email',
            cell: (customer) => <TextLink to={`${basePath}/${customer.id}`}>{customer.email}</TextLink>,
          },
          { header: 'Name', sortField: 'name', cell: (customer) => customer.name ?? '—' },
          { header: 'Created', sortField: 'created_at', cell: (customer) => formatDate(customer.created_at) },
        ]}
      />
    </div>
  );
}
