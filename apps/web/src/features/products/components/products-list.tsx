import { useState } from 'react';
import { Link } from 'react-router';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { Loading } from '../../../components/ui/spinner';
import { Pagination, SortHeader, Table, TableHead, Td, Th, Tr } from '../../../components/ui/table';
import { useToast } from '../../../components/ui/toast';
import { formatDate } from '../../../lib/format';
import { useProducts } from '../api/get-products';
import { useUpdateProduct } from '../api/update-product';
import { describeInterval, describePrice } from './prices';

type Sorting = 'created_at' | '-created_at' | 'name' | '-name' | 'price_amount' | '-price_amount';

const STATUS_OPTIONS = [
  { value: 'active', label: 'Active' },
  { value: 'archived', label: 'Archived' },
  { value: 'all', label: 'All' },
];

export interface ProductsListProps {
  organizationId: string;
  /** Where "New product" and the product links lead. */
  basePath: string;
}

export function ProductsList({ organizationId, basePath }: ProductsListProps) {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('active');
  const [sorting, setSorting] = useState<Sorting>('-created_at');
  const [page, setPage] = useState(1);
  const query = useProducts({
    organization_id: organizationId,
    query: search.trim() || undefined,
    is_archived: status === 'all' ? undefined : status === 'archived',
    sorting: [sorting],
    page,
    limit: 20,
  });
  const archive = useUpdateProduct();
  const toast = useToast();
  const isFiltered = search.trim() !== '' || status !== 'active';

  const sort = (value: string) => {
    setSorting(value as Sorting);
    setPage(1);
  };

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3">
        <Field label="Search products" className="w-full sm:w-72">
          <Input
            type="search"
            value={search}
            placeholder="Name or description"
            onChange={(event) => {
              setSearch(event.target.value);
              setPage(1);
            }}
          />
        </Field>
        <Field label="Status" className="w-40">
          <Select
            value={status}
            options={STATUS_OPTIONS}
            onValueChange={(value) => {
              setStatus(value);
              setPage(1);
            }}
          />
        </Field>
      </div>
      <ApiErrorAlert error={archive.error} />
      {query.isPending ? (
        <Loading label="Loading products…" />
      ) : query.isError ? (
        <ApiErrorAlert error={query.error} />
      ) : query.data.items.length === 0 ? (
        isFiltered ? (
          <EmptyState
            title="No matching products"
            description="Nothing matches this search and status. Try another search."
          />
        ) : (
          <EmptyState
            title="No products yet"
            description="Products are what your customers buy: one-time purchases or subscriptions, each with its prices."
            action={
              <Button asChild>
                <Link to={`${basePath}/new`}>Create your first product</Link>
              </Button>
            }
          />
        )
      ) : (
        <>
          <Table label="Products">
            <TableHead>
              <SortHeader label="Name" field="name" sorting={sorting} onSortingChange={sort} />
              <Th>Billing</Th>
              <SortHeader label="Price" field="price_amount" sorting={sorting} onSortingChange={sort} />
              <Th>Status</Th>
              <SortHeader label="Created" field="created_at" sorting={sorting} onSortingChange={sort} />
              <Th>
                <span className="sr-only">Actions</span>
              </Th>
            </TableHead>
            <tbody>
              {query.data.items.map((product) => (
                <Tr key={product.id}>
                  <Td>
                    <Link
                      className="font-medium text-blue-800 underline-offset-2 hover:underline"
                      to={`${basePath}/${product.id}`}
                    >
                      {product.name}
                    </Link>
                  </Td>
                  <Td>{describeInterval(product.recurring_interval)}</Td>
                  <Td>
                    {product.prices
                      .filter((price) => !price.is_archived)
                      .map(describePrice)
                      .join(', ') || '—'}
                  </Td>
                  <Td>{product.is_archived ? <Badge>Archived</Badge> : <Badge tone="success">Active</Badge>}</Td>
                  <Td>{formatDate(product.created_at)}</Td>
                  <Td className="text-right">
                    {product.is_archived ? (
                      <ConfirmButton
                        variant="secondary"
                        aria-label={`Unarchive ${product.name}`}
                        title={`Unarchive “${product.name}”?`}
                        description="It can be bought again through new checkouts. Checkout links it was removed from do not get it back."
                        confirmLabel="Unarchive product"
                        onConfirm={() =>
                          archive.mutate(
                            { id: product.id, body: { is_archived: false } },
                            { onSuccess: () => toast(`${product.name} unarchived`) },
                          )
                        }
                      >
                        Unarchive
                      </ConfirmButton>
                    ) : (
                      <ConfirmButton
                        aria-label={`Archive ${product.name}`}
                        title={`Archive “${product.name}”?`}
                        description="Archived products can no longer be bought and leave every checkout link. Existing subscriptions continue."
                        confirmLabel="Archive product"
                        onConfirm={() =>
                          archive.mutate(
                            { id: product.id, body: { is_archived: true } },
                            { onSuccess: () => toast(`${product.name} archived`) },
                          )
                        }
                      >
                        Archive
                      </ConfirmButton>
                    )}
                  </Td>
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
