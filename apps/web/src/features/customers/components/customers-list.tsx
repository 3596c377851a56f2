import { useState } from 'react';
import { Link } from 'react-router';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { EmptyState } from '../../../components/ui/empty-state';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { Loading } from '../../../components/ui/spinner';
import { Pagination, SortHeader, Table, TableHead, Td, Tr } from '../../../components/ui/table';
import { formatDate } from '../../../lib/format';
import { useCustomers } from '../api/get-customers';

type Sorting = 'created_at' | '-created_at' | 'email' | '-email' | 'name' | '-name';

export function CustomersList({ organizationId, basePath }: { organizationId: string; basePath: string }) {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [sorting, setSorting] = useState<Sorting>('-created_at');
  const query = useCustomers({
    organization_id: organizationId,
    query: search.trim() || undefined,
    page,
    limit: 20,
    sorting: [sorting],
  });
  const sort = (value: string) => setSorting(value as Sorting);

  return (
    <div className="space-y-4">
      <Field label="Search customers" className="w-full sm:w-72">
        <Input
          type="search"
          value={search}
          placeholder="Email or name"
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(1);
          }}
        />
      </Field>
      {query.isPending ? (
        <Loading label="Loading customers…" />
      ) : query.isError ? (
        <ApiErrorAlert error={query.error} />
      ) : query.data.items.length === 0 ? (
        search.trim() ? (
          <EmptyState title="No matching customers" description="Nobody matches this search." />
        ) : (
          <EmptyState
            title="No customers yet"
            description="Customers appear here after their first checkout, or when your integration creates them through the API."
          />
        )
      ) : (
        <>
          <Table label="Customers">
            <TableHead>
              <SortHeader label="Email" field="email" sorting={sorting} onSortingChange={sort} />
              <SortHeader label="Name" field="name" sorting={sorting} onSortingChange={sort} />
              <SortHeader label="Created" field="created_at" sorting={sorting} onSortingChange={sort} />
            </TableHead>
            <tbody>
              {query.data.items.map((customer) => (
                <Tr key={customer.id}>
                  <Td>
                    <Link
                      className="font-medium text-blue-800 underline-offset-2 hover:underline"
                      to={`${basePath}/${customer.id}`}
                    >
                      {customer.email}
                    </Link>
                  </Td>
                  <Td>{customer.name ?? '—'}</Td>
                  <Td>{formatDate(customer.created_at)}</Td>
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
        </>
      )}
    </div>
  );
}
