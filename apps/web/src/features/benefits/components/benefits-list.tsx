import { NamedAPIError } from '@tessera/sdk';
import { useState } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Loading } from '../../../components/ui/spinner';
import { Pagination, SortHeader, Table, TableHead, Td, Th, Tr } from '../../../components/ui/table';
import { useToast } from '../../../components/ui/toast';
import { formatDate } from '../../../lib/format';
import { useDeleteBenefit } from '../api/delete-benefit';
import { useBenefits } from '../api/get-benefits';
import { BenefitFormDialog } from './benefit-form-dialog';
import { benefitTypeLabel, describeBenefitProperties } from './benefit-types';

type Sorting = 'created_at' | '-created_at' | 'description' | '-description';

/** A refused deletion in the words of the action (the API's NotPermitted says only "Not permitted"). */
export function explainDeleteError(error: unknown): unknown {
  if (error instanceof NamedAPIError && error.error === 'NotPermitted')
    return new Error('This benefit is managed by Tessera and cannot be deleted.');
  return error;
}

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
        description="Benefits are what a purchase grants: license keys, private notes, repository access and more. Create one, then attach it to products."
      />
    );
  const sort = (value: string) => setSorting(value as Sorting);
  return (
    <div className="space-y-3">
      <ApiErrorAlert error={explainDeleteError(remove.error)} />
      <Table label="Benefits">
        <TableHead>
          <SortHeader label="Description" field="description" sorting={sorting} onSortingChange={sort} />
          <Th>Type</Th>
          <Th>Settings</Th>
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
                <Badge tone="info">{benefitTypeLabel(benefit.type)}</Badge>
              </Td>
              <Td className="text-slate-700">{describeBenefitProperties(benefit)}</Td>
              <Td>{formatDate(benefit.created_at)}</Td>
              <Td className="space-x-2 text-right whitespace-nowrap">
                <BenefitFormDialog
                  organizationId={organizationId}
                  benefit={benefit}
                  trigger={(open) => (
                    <Button variant="secondary" size="sm" aria-label={`Edit ${benefit.description}`} onClick={open}>
                      Edit
                    </Button>
                  )}
                />
                {benefit.deletable && (
                  <ConfirmButton
                    aria-label={`Delete ${benefit.description}`}
                    title={`Delete “${benefit.description}”?`}
                    description="It is removed from every product, and customers who were granted it lose it. This cannot be undone."
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
