import type { Discount } from '@tessera/sdk';
import { useState } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { PagedTable, SearchField, usePage } from '../../../components/ui/paged-list';
import type { SelectOption } from '../../../components/ui/select';
import { useToast } from '../../../components/ui/toast';
import { formatBasisPoints, formatDate, formatMoney } from '../../../lib/format';
import { useDeleteDiscount } from '../api/delete-discount';
import { useDiscounts } from '../api/get-discounts';
import { DiscountFormDialog } from './discount-form-dialog';

type Sorting =
  'created_at' | '-created_at' | 'name' | '-name' | 'code' | '-code' | 'redemptions_count' | '-redemptions_count';

export function describeDiscount(discount: Discount): string {
  const off =
    discount.type === 'percentage'
      ? formatBasisPoints(discount.basis_points)
      : formatMoney(discount.amount, discount.currency);
  if (discount.duration === 'repeating') return `${off} off for ${discount.duration_in_months} months`;
  return `${off} off ${discount.duration === 'forever' ? 'forever' : 'once'}`;
}

export function DiscountsList({
  organizationId,
  productOptions,
}: {
  organizationId: string;
  /** The products a discount can be limited to, for the edit form. */
  productOptions?: readonly SelectOption[];
}) {
  const [search, setSearch] = useState('');
  const [page, setPage] = usePage(search);
  const [sorting, setSorting] = useState<Sorting>('-created_at');
  const query = useDiscounts({
    organization_id: organizationId,
    query: search.trim() || undefined,
    page,
    limit: 20,
    sorting: [sorting],
  });
  const remove = useDeleteDiscount();
  const toast = useToast();

  return (
    <div className="space-y-4">
      <SearchField label="Search discounts" placeholder="Name or code" value={search} onChange={setSearch} />
      <ApiErrorAlert error={remove.error} />
      <PagedTable
        query={query}
        loadingLabel="Loading discounts…"
        page={page}
        onPageChange={setPage}
        empty={
          search.trim() ? (
            <EmptyState title="No matching discounts" description="Nothing matches this search." />
          ) : (
            <EmptyState
              title="No discounts yet"
              description="Discounts lower a price by a percentage or an amount, once, for some months or forever."
            />
          )
        }
        label="Discounts"
        sorting={sorting}
        onSortingChange={setSorting}
        columns={[
          { header: 'Name', sortField: 'name', className: 'font-medium', cell: (discount) => discount.name },
          {
            header: 'Code',
            sortField: 'code',
            cell: (discount) => (discount.code ? <code className="font-mono">{discount.code}</code> : '—'),
          },
          { header: 'Value', cell: describeDiscount },
          {
            header: 'Redemptions',
            sortField: 'redemptions_count',
            cell: (discount) =>
              `${discount.redemptions_count}${discount.max_redemptions ? ` of ${discount.max_redemptions}` : ''}`,
          },
          { header: 'Created', sortField: 'created_at', cell: (discount) => formatDate(discount.created_at) },
          {
            header: 'Actions',
            hideHeader: true,
            align: 'right',
            className: 'space-x-2 whitespace-nowrap',
            cell: (discount) => (
              <>
                <DiscountFormDialog
                  organizationId={organizationId}
                  discount={discount}
                  productOptions={productOptions}
                  trigger={(open) => (
                    <Button variant="secondary" size="sm" aria-label={`Edit ${discount.name}`} onClick={open}>
                      Edit
                    </Button>
                  )}
                />
                <ConfirmButton
                  aria-label={`Delete ${discount.name}`}
                  title={`Delete “${discount.name}”?`}
                  description="Customers can no longer redeem it. Subscriptions that already use it keep it."
                  confirmLabel="Delete discount"
                  onConfirm={() => remove.mutate(discount.id, { onSuccess: () => toast('Discount deleted') })}
                >
                  Delete
                </ConfirmButton>
              </>
            ),
          },
        ]}
      />
    </div>
  );
}
