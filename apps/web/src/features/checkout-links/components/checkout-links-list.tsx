import { useState } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { CopyButton } from '../../../components/ui/copy-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Loading } from '../../../components/ui/spinner';
import { Pagination, SortHeader, Table, TableHead, Td, Th, Tr } from '../../../components/ui/table';
import { useToast } from '../../../components/ui/toast';
import { formatDate } from '../../../lib/format';
import { useDeleteCheckoutLink } from '../api/delete-checkout-link';
import { useCheckoutLinks } from '../api/get-checkout-links';

type Sorting = 'created_at' | '-created_at' | 'label' | '-label';

export function CheckoutLinksList({ organizationId }: { organizationId: string }) {
  const [page, setPage] = useState(1);
  const [sorting, setSorting] = useState<Sorting>('-created_at');
  const query = useCheckoutLinks({ organization_id: organizationId, page, limit: 20, sorting: [sorting] });
  const remove = useDeleteCheckoutLink();
  const toast = useToast();
  const sort = (value: string) => setSorting(value as Sorting);

  if (query.isPending) return <Loading label="Loading checkout links…" />;
  if (query.isError) return <ApiErrorAlert error={query.error} />;
  if (query.data.items.length === 0 && page === 1)
    return (
      <EmptyState
        title="No checkout links yet"
        description="A checkout link is a URL you share anywhere: each visit opens a checkout for the products you chose."
      />
    );
  return (
    <div className="space-y-3">
      <ApiErrorAlert error={remove.error} />
      <Table label="Checkout links">
        <TableHead>
          <SortHeader label="Label" field="label" sorting={sorting} onSortingChange={sort} />
          <Th>Products</Th>
          <Th>Discount</Th>
          <SortHeader label="Created" field="created_at" sorting={sorting} onSortingChange={sort} />
          <Th>
            <span className="sr-only">Actions</span>
          </Th>
        </TableHead>
        <tbody>
          {query.data.items.map((link) => {
            const name = link.label || 'Untitled link';
            return (
              <Tr key={link.id}>
                <Td className="font-medium">{name}</Td>
                <Td>{link.products.map((product) => product.name).join(', ') || '—'}</Td>
                <Td>{link.discount ? <Badge tone="info">{link.discount.name}</Badge> : '—'}</Td>
                <Td>{formatDate(link.created_at)}</Td>
                <Td className="space-x-2 text-right whitespace-nowrap">
                  <CopyButton value={link.url} label="Copy URL" />
                  <Button variant="secondary" size="sm" asChild>
                    <a href={link.url} target="_blank" rel="noreferrer" aria-label={`Open ${name} in a new tab`}>
                      Open
                    </a>
                  </Button>
                  <ConfirmButton
                    aria-label={`Delete ${name}`}
                    title={`Delete “${name}”?`}
                    description="The URL stops working for anyone who has it."
                    confirmLabel="Delete link"
                    onConfirm={() => remove.mutate(link.id, { onSuccess: () => toast('Checkout link deleted') })}
                  >
                    Delete
                  </ConfirmButton>
                </Td>
              </Tr>
            );
          })}
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
