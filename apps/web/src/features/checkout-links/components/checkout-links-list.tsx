import type { CheckoutLink } from '@tessera/sdk';
import { useState } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { CopyButton } from '../../../components/ui/copy-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { PagedTable } from '../../../components/ui/paged-list';
import type { SelectOption } from '../../../components/ui/select';
import { useToast } from '../../../components/ui/toast';
import { formatDate } from '../../../lib/format';
import { useDeleteCheckoutLink } from '../api/delete-checkout-link';
import { useCheckoutLinks } from '../api/get-checkout-links';
import { CheckoutLinkFormDialog } from './create-checkout-link-dialog';

type Sorting = 'created_at' | '-created_at' | 'label' | '-label';

const linkName = (link: CheckoutLink) => link.label || 'Untitled link';

/** Completed checkouts over visits, as a whole percent with one decimal below 10 % ("—" without visits). */
export function conversionText(stats: CheckoutLink['stats']): string {
  if (stats.visits === 0) return '—';
  const percent = stats.conversion * 100;
  return `${percent < 10 && percent > 0 ? percent.toFixed(1) : Math.round(percent)}%`;
}

export interface CheckoutLinksListProps {
  organizationId: string;
  /** What the edit form offers (the route loads them). */
  productOptions: readonly SelectOption[];
  discountOptions: readonly SelectOption[];
}

export function CheckoutLinksList({ organizationId, productOptions, discountOptions }: CheckoutLinksListProps) {
  const [page, setPage] = useState(1);
  const [sorting, setSorting] = useState<Sorting>('-created_at');
  const query = useCheckoutLinks({ organization_id: organizationId, page, limit: 20, sorting: [sorting] });
  const remove = useDeleteCheckoutLink();
  const toast = useToast();

  return (
    <div className="space-y-3">
      <ApiErrorAlert error={remove.error} />
      <PagedTable
        query={query}
        loadingLabel="Loading checkout links…"
        page={page}
        onPageChange={setPage}
        empty={
          <EmptyState
            title="No checkout links yet"
            description="A checkout link is a URL you share anywhere: each visit opens a checkout for the products you chose."
          />
        }
        label="Checkout links"
        sorting={sorting}
        onSortingChange={setSorting}
        columns={[
          { header: 'Label', sortField: 'label', className: 'font-medium', cell: linkName },
          {
            header: 'Products',
            cell: (link) => link.products.map((product) => product.name).join(', ') || '—',
          },
          {
            header: 'Discount',
            cell: (link) => (link.discount ? <Badge tone="info">{link.discount.name}</Badge> : '—'),
          },
          { header: 'Visits', align: 'right', className: 'tabular-nums', cell: (link) => link.stats.visits },
          {
            header: 'Checkouts started',
            align: 'right',
            className: 'tabular-nums',
            cell: (link) => link.stats.checkouts_started,
          },
          {
            header: 'Completed',
            align: 'right',
            className: 'tabular-nums',
            cell: (link) => link.stats.checkouts_completed,
          },
          {
            header: 'Conversion',
            align: 'right',
            className: 'tabular-nums',
            cell: (link) => conversionText(link.stats),
          },
          { header: 'Created', sortField: 'created_at', cell: (link) => formatDate(link.created_at) },
          {
            header: 'Actions',
            hideHeader: true,
            align: 'right',
            className: 'space-x-2 whitespace-nowrap',
            cell: (link) => (
              <>
                <CopyButton value={link.url} label="Copy URL" />
                <CheckoutLinkFormDialog
                  link={link}
                  productOptions={productOptions}
                  discountOptions={discountOptions}
                  trigger={(open) => (
                    <Button variant="secondary" size="sm" aria-label={`Edit ${linkName(link)}`} onClick={open}>
                      Edit
                    </Button>
                  )}
                />
                <Button variant="secondary" size="sm" asChild>
                  <a
                    href={link.url}
                    target="_blank"
                    rel="noreferrer"
                    aria-label={`Open ${linkName(link)} in a new tab`}
                  >
                    Open
                  </a>
                </Button>
                <ConfirmButton
                  aria-label={`Delete ${linkName(link)}`}
                  title={`Delete “${linkName(link)}”?`}
                  description="The URL stops working for anyone who has it."
                  confirmLabel="Delete link"
                  onConfirm={() => remove.mutate(link.id, { onSuccess: () => toast('Checkout link deleted') })}
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
