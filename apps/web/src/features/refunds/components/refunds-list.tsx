import type { RefundsListRequest } from '@tessera/sdk';
import { useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { EmptyState } from '../../../components/ui/empty-state';
import { Checkbox } from '../../../components/ui/input';
import { PagedTable, usePage } from '../../../components/ui/paged-list';
import { TextLink } from '../../../components/ui/text-link';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { useRefunds } from '../api/get-refunds';
import { REFUND_REASON_LABELS } from '../logic/refund-form';
import { REFUND_STATUS } from './refund-labels';

type Sorting = 'created_at' | '-created_at' | 'amount' | '-amount';

export interface RefundsListProps {
  organizationId: string;
  /** The organization's dashboard path: orders and customers link below it. */
  dashboardPath: string;
  /** Only the refunds of this order (the order page): no filter, no order column. */
  orderId?: string;
}

export function RefundsList({ organizationId, dashboardPath, orderId }: RefundsListProps) {
  const [succeededOnly, setSucceededOnly] = useState(false);
  const [sorting, setSorting] = useState<Sorting>('-created_at');
  const [page, setPage] = usePage([succeededOnly, sorting].join('|'));
  const request: RefundsListRequest = {
    organization_id: organizationId,
    order_id: orderId,
    // As the API reads it: true keeps succeeded refunds, false does not filter.
    succeeded: succeededOnly ? true : undefined,
    sorting: [sorting],
    page,
    limit: 20,
  };
  const query = useRefunds(request);

  return (
    <div className="space-y-4">
      {!orderId && (
        <Checkbox
          label="Succeeded refunds only"
          checked={succeededOnly}
          onChange={(event) => setSucceededOnly(event.target.checked)}
        />
      )}
      <PagedTable
        query={query}
        loadingLabel="Loading refunds…"
        page={page}
        onPageChange={setPage}
        empty={
          orderId ? (
            <EmptyState title="No refunds" description="Nothing was refunded for this order." />
          ) : succeededOnly ? (
            <EmptyState title="No matching refunds" description="No refund has succeeded yet." />
          ) : (
            <EmptyState
              title="No refunds yet"
              description="Refund an order from its page: the money goes back to the customer's card and the order shows what was refunded."
            />
          )
        }
        label="Refunds"
        sorting={sorting}
        onSortingChange={setSorting}
        columns={[
          { header: 'Date', sortField: 'created_at', cell: (refund) => formatDateTime(refund.created_at) },
          {
            header: 'Amount',
            sortField: 'amount',
            cell: (refund) => formatMoney(refund.amount, refund.currency),
          },
          { header: 'Tax', cell: (refund) => formatMoney(refund.tax_amount, refund.currency) },
          {
            header: 'Status',
            cell: (refund) => (
              <Badge tone={REFUND_STATUS[refund.status].tone}>{REFUND_STATUS[refund.status].label}</Badge>
            ),
          },
          { header: 'Reason', cell: (refund) => REFUND_REASON_LABELS[refund.reason] },
          { header: 'Benefits', cell: (refund) => (refund.revoke_benefits ? 'Revoked' : 'Kept') },
          !orderId && {
            header: 'Order',
            cell: (refund) => (
              <TextLink to={`${dashboardPath}/orders/${refund.order_id}`}>
                View order
                <span className="sr-only"> of the refund of {formatDateTime(refund.created_at)}</span>
              </TextLink>
            ),
          },
          !orderId && {
            header: 'Customer',
            cell: (refund) => (
              <TextLink to={`${dashboardPath}/customers/${refund.customer_id}`}>
                View customer
                <span className="sr-only"> of the refund of {formatDateTime(refund.created_at)}</span>
              </TextLink>
            ),
          },
        ]}
      />
    </div>
  );
}
