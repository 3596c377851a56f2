import type { Discount } from '@tessera/sdk';
import { useState } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { Loading } from '../../../components/ui/spinner';
import { Pagination, SortHeader, Table, TableHead, Td, Th, Tr } from '../../../components/ui/table';
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

export function DiscountsList({ organizationId }: { organizationId: string }) {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
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
  const sort = (value: string) => setSorting(value as Sorting);

  return (
    <div className="space-y-4">
      <Field label="Search discounts" className="w-full sm:w-72">
        <Input
          type="search"
          value={search}
          placeholder="Name or code"
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(1);
          }}
        />
      </Field>
      <ApiErrorAlert error={remove.error} />
      {query.isPending ? (
        <Loading label="Loading discounts…" />
      ) : query.isError ? (
        <ApiErrorAlert error={query.error} />
      ) : query.data.items.length === 0 ? (
        search.trim() ? (
          <EmptyState title="No matching discounts" description="Nothing matches this search." />
        ) : (
          <EmptyState
            title="No discounts yet"
            description="Discounts lower a price by a percentage or an amount, once, for some months or forever."
          />
        )
      ) : (
        <>
          <Table label="Discounts">
            <TableHead>
              <SortHeader label="Name" field="name" sorting={sorting} onSortingChange={sort} />
              <SortHeader label="Code" field="code" sorting={sorting} onSortingChange={sort} />
              <Th>Value</Th>
              <SortHeader label="Redemptions" field="redemptions_count" sorting={sorting} onSortingChange={sort} />
              <SortHeader label="Created" field="created_at" sorting={sorting} onSortingChange={sort} />
              <Th>
                <span className="sr-only">Actions</span>
              </Th>
            </TableHead>
            <tbody>
              {query.data.items.map((discount) => (
                <Tr key={discount.id}>
                  <Td className="font-medium">{discount.name}</Td>
                  <Td>{discount.code ? <code className="font-mono">{discount.code}</code> : '—'}</Td>
                  <Td>{describeDiscount(discount)}</Td>
                  <Td>
                    {discount.redemptions_count}
                    {discount.max_redemptions ? ` of ${discount.max_redemptions}` : ''}
                  </Td>
                  <Td>{formatDate(discount.created_at)}</Td>
                  <Td className="space-x-2 text-right whitespace-nowrap">
                    <DiscountFormDialog
                      organizationId={organizationId}
                      discount={discount}
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
