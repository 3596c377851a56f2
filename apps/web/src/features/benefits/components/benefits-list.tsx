import { NamedAPIError } from '@tessera/sdk';
import { useState } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { PagedTable } from '../../../components/ui/paged-list';
import type { SelectOption } from '../../../components/ui/select';
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

export interface BenefitsListProps {
  organizationId: string;
  /** The organization's meters, offered to a meter credit being edited (loaded by the page). */
  meterOptions?: readonly SelectOption[];
}

export function BenefitsList({ organizationId, meterOptions }: BenefitsListProps) {
  const [page, setPage] = useState(1);
  const [sorting, setSorting] = useState<Sorting>('-created_at');
  const query = useBenefits({ organization_id: organizationId, page, limit: 20, sorting: [sorting] });
  const remove = useDeleteBenefit();
  const toast = useToast();

  return (
    <div className="space-y-3">
      <ApiErrorAlert error={explainDeleteError(remove.error)} />
      <PagedTable
        query={query}
        loadingLabel="Loading benefits…"
        page={page}
        onPageChange={setPage}
        empty={
          <EmptyState
            title="No benefits yet"
            description="Benefits are what a purchase grants: license keys, private notes, repository access and more. Create one, then attach it to products."
          />
        }
        label="Benefits"
        sorting={sorting}
        onSortingChange={setSorting}
        columns={[
          {
            header: 'Description',
            sortField: 'description',
            className: 'font-medium',
            cell: (benefit) => benefit.description,
          },
          { header: 'Type', cell: (benefit) => <Badge tone="info">{benefitTypeLabel(benefit.type)}</Badge> },
          { header: 'Settings', className: 'text-slate-700', cell: describeBenefitProperties },
          { header: 'Created', sortField: 'created_at', cell: (benefit) => formatDate(benefit.created_at) },
          {
            header: 'Actions',
            hideHeader: true,
            align: 'right',
            className: 'space-x-2 whitespace-nowrap',
            cell: (benefit) => (
              <>
                <BenefitFormDialog
                  organizationId={organizationId}
                  benefit={benefit}
                  meterOptions={meterOptions}
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
              </>
            ),
          },
        ]}
      />
    </div>
  );
}
