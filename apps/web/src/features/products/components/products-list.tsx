import type { Product } from '@tessera/sdk';
import { useState } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { BulkActionBar, SelectRowCheckbox, useRowSelection } from '../../../components/ui/bulk-actions';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { EmptyState } from '../../../components/ui/empty-state';
import { Field } from '../../../components/ui/field';
import { PagedTable, SearchField, usePage } from '../../../components/ui/paged-list';
import { RowActionsMenu } from '../../../components/ui/row-actions-menu';
import { Select } from '../../../components/ui/select';
import { TextLink } from '../../../components/ui/text-link';
import { useToast } from '../../../components/ui/toast';
import { formatDate } from '../../../lib/format';
import { PRODUCTS_QUERY_KEY, useProducts } from '../api/get-products';
import { updateProduct, useUpdateProduct } from '../api/update-product';
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
  const [page, setPage] = usePage([search, status, sorting].join('|'));
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
  const selection = useRowSelection<Product>();
  const rows = query.data?.items ?? [];
  const queryClient = useQueryClient();
  const isFiltered = search.trim() !== '' || status !== 'active';

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3">
        <SearchField label="Search products" placeholder="Name or description" value={search} onChange={setSearch} />
        <Field label="Status" className="w-40">
          <Select value={status} options={STATUS_OPTIONS} onValueChange={setStatus} />
        </Field>
      </div>
      <ApiErrorAlert error={archive.error} />
      <BulkActionBar
        items={selection.items}
        nameOf={(product) => product.name}
        noun={{ one: 'product', many: 'products' }}
        verb="Archive"
        done="archived"
        consequence="Archived products can no longer be bought and leave every checkout link. Existing subscriptions continue."
        hasPage={rows.length > 0}
        allOnPageSelected={selection.allSelected(rows)}
        onTogglePage={() => selection.togglePage(rows)}
        onClear={selection.clear}
        action={(product) => updateProduct({ id: product.id, body: { is_archived: true } })}
        onFinished={(outcome) => {
          selection.clear();
          if (outcome.succeeded.length) void queryClient.invalidateQueries({ queryKey: PRODUCTS_QUERY_KEY });
        }}
      />
      <PagedTable
        query={query}
        loadingLabel="Loading products…"
        page={page}
        onPageChange={setPage}
        empty={
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
        }
        label="Products"
        sorting={sorting}
        onSortingChange={setSorting}
        columns={[
          {
            header: 'Select',
            hideHeader: true,
            cell: (product) => (
              <SelectRowCheckbox
                label={`Select ${product.name}`}
                checked={selection.has(product.id)}
                onChange={() => selection.toggle(product)}
              />
            ),
          },
          {
            header: 'Name',
            sortField: 'name',
            cell: (product) => <TextLink to={`${basePath}/${product.id}`}>{product.name}</TextLink>,
          },
          { header: 'Billing', cell: (product) => describeInterval(product.recurring_interval) },
          {
            header: 'Price',
            sortField: 'price_amount',
            cell: (product) =>
              product.prices
                .filter((price) => !price.is_archived)
                .map(describePrice)
                .join(', ') || '—',
          },
          {
            header: 'Status',
            cell: (product) => (product.is_archived ? <Badge>Archived</Badge> : <Badge tone="success">Active</Badge>),
          },
          { header: 'Created', sortField: 'created_at', cell: (product) => formatDate(product.created_at) },
          {
            header: 'Actions',
            hideHeader: true,
            align: 'right',
            cell: (product) => (
              <ProductActions
                product={product}
                editPath={`${basePath}/${product.id}`}
                onArchive={(isArchived) =>
                  archive.mutate(
                    { id: product.id, body: { is_archived: isArchived } },
                    { onSuccess: () => toast(`${product.name} ${isArchived ? 'archived' : 'unarchived'}`) },
                  )
                }
              />
            ),
          },
        ]}
      />
    </div>
  );
}

/**
 * A row's actions behind one menu: edit, copy the product's id (what an integration passes to create a
 * checkout), archive or unarchive after a confirmation.
 */
function ProductActions({
  product,
  editPath,
  onArchive,
}: {
  product: Product;
  editPath: string;
  onArchive(isArchived: boolean): void;
}) {
  const [confirming, setConfirming] = useState(false);
  const toast = useToast();
  const archiving = !product.is_archived;
  return (
    <>
      <RowActionsMenu
        label={`Actions for ${product.name}`}
        actions={[
          { label: 'Edit', to: editPath },
          {
            label: 'Copy product ID',
            onSelect: () =>
              void navigator.clipboard.writeText(product.id).then(
                () => toast(`Product ID of ${product.name} copied`),
                () => toast(`Product ID: ${product.id}`),
              ),
          },
          { label: archiving ? 'Archive…' : 'Unarchive…', danger: archiving, onSelect: () => setConfirming(true) },
        ]}
      />
      <Dialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`${archiving ? 'Archive' : 'Unarchive'} “${product.name}”?`}
        description={
          archiving
            ? 'Archived products can no longer be bought and leave every checkout link. Existing subscriptions continue.'
            : 'It can be bought again through new checkouts. Checkout links it was removed from do not get it back.'
        }
      >
        <DialogActions>
          <Button variant="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button
            variant={archiving ? 'danger' : 'primary'}
            onClick={() => {
              setConfirming(false);
              onArchive(archiving);
            }}
          >
            {archiving ? 'Archive product' : 'Unarchive product'}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
