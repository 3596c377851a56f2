import { useState } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Loading } from '../../../components/ui/spinner';
import { Pagination, SortHeader, Table, TableHead, Td, Th, Tr } from '../../../components/ui/table';
import { useToast } from '../../../components/ui/toast';
import { formatDate } from '../../../lib/format';
import { useDeleteBenefit } from '../api/delete-benefit';
import { useBenefits } from '../api/get-benefits';

type Sorting = 'created_at' | '-created_at' | 'description' | '-description';

const TYPE_LABELS: Record<string, string> = {
  custom: 'Custom',
  license_keys: 'License keys',
  discord: 'Discord',
  github_repository: 'GitHub repository',
  downloadables: 'Downloadables',
  meter_credit: 'Meter credit',
};

export function BenefitsList({ organizationId }: { organizationId: string }) {
  const [page, setPage] = useState(1);
  const [sorting, setSorting] = useState<Sorting>('-created_at');
  const query = useBenefits({ organization_id: organizationId, page, limit: 20, sorting: [sorting] });
  const remove = useDeleteBenefit();
  const toast = useToast();

  if (query.isPending) return <Loading label="Loading benefits…" />;
  if (query.isError) return <ApiErrorAlert error={query.error} />;
  if (query.data.items.length === 0 && page === 1)
    return (
      <EmptyState
        title="No benefits yet"
        description="Benefits are what a purchase grants: license keys, private notes and more. Attach them to products."
      />
    );
  const sort = (value: string) => setSorting(value as Sorting);
  return (
    <div className="space-y-3">
      <ApiErrorAlert error={remove.error} />
      <Table label="Benefits">
        <TableHead>
          <SortHeader label="Description" field="description" sorting={sorting} onSortingChange={sort} />
          <Th>Type</Th>
          <SortHeader label="Created" field="created_at" sorting={sorting} onSortingChange={sort} />
          <Th>
            <span className="sr-only">Actions</span>
          </Th>
        </TableHead>
        <tbody>
          {query.data.items.map((benefit) => (
            <Tr key={benefit.id}>
              <Td className="font-medium">{benefit.description}</Td>
              <Td>
                <Badge tone="info">{TYPE_LABELS[benefit.type] ?? benefit.type}</Badge>
              </Td>
              <Td>{formatDate(benefit.created_at)}</Td>
              <Td className="text-right">
                {benefit.deletable && (
                  <ConfirmButton
                    aria-label={`Delete ${benefit.description}`}
                    title={`Delete “${benefit.description}”?`}
                    description="Customers who were granted it lose it. This cannot be undone."
                    confirmLabel="Delete benefit"
                    onConfirm={() => remove.mutate(benefit.id, { onSuccess: () => toast('Benefit deleted') })}
                  >
                    Delete
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
    </div>
  );
}
