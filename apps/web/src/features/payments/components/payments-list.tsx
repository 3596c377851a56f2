import type { PaymentsListRequest, PaymentStatus } from '@tessera/sdk';
import { useState, type FormEvent } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { PagedTable, usePage } from '../../../components/ui/paged-list';
import { Select } from '../../../components/ui/select';
import { TextLink } from '../../../components/ui/text-link';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { usePayments } from '../api/get-payments';
import { describeDecline, describeMethod, METHOD_OPTIONS, PAYMENT_STATUS, STATUS_OPTIONS } from './payment-labels';

type Sorting = 'created_at' | '-created_at' | 'amount' | '-amount' | 'status' | '-status' | 'method' | '-method';

const ALL = 'all';

export interface PaymentsListProps {
  organizationId: string;
  /** The organization's dashboard path: orders link below it. */
  dashboardPath: string;
  /** Only the payments of this order (the order page): no filters, no order column. */
  orderId?: string;
}

export function PaymentsList({ organizationId, dashboardPath, orderId }: PaymentsListProps) {
  const [status, setStatus] = useState(ALL);
  const [method, setMethod] = useState(ALL);
  const [emailDraft, setEmailDraft] = useState('');
  const [email, setEmail] = useState('');
  const [sorting, setSorting] = useState<Sorting>('-created_at');
  const [page, setPage] = usePage([status, method, email, sorting].join('|'));
  const request: PaymentsListRequest = {
    organization_id: organizationId,
    order_id: orderId,
    status: status === ALL ? undefined : (status as PaymentStatus),
    method: method === ALL ? undefined : method,
    customer_email: email || undefined,
    sorting: [sorting],
    page,
    limit: 20,
  };
  const query = usePayments(request);
  const isFiltered = status !== ALL || method !== ALL || email !== '';

  function applyEmail(event: FormEvent) {
    event.preventDefault();
    setEmail(emailDraft.trim());
  }

  return (
    <div className="space-y-4">
      {!orderId && (
        <div className="flex flex-wrap items-start gap-3">
          <form onSubmit={applyEmail} className="flex items-end gap-2" role="search" aria-label="Payments by customer">
            <Field label="Customer email" className="w-full sm:w-72">
              <Input
                type="search"
                value={emailDraft}
                placeholder="name@example.com"
                onChange={(event) => {
                  setEmailDraft(event.target.value);
                  // Clearing the field clears the filter, as a search field's ✕ does.
                  if (event.target.value === '') setEmail('');
                }}
              />
            </Field>
            <Button type="submit" variant="secondary">
              Filter
            </Button>
          </form>
          <Field label="Status" className="w-40">
            <Select value={status} options={STATUS_OPTIONS} onValueChange={setStatus} />
          </Field>
          <Field label="Method" className="w-40">
            <Select value={method} options={METHOD_OPTIONS} onValueChange={setMethod} />
          </Field>
        </div>
      )}
      <PagedTable
        query={query}
        loadingLabel="Loading payments…"
        page={page}
        onPageChange={setPage}
        empty={
          isFiltered ? (
            <EmptyState
              title="No matching payments"
              description="No payment matches these filters. The email must be the customer's full address."
            />
          ) : orderId ? (
            <EmptyState title="No payments" description="Nothing was charged for this order." />
          ) : (
            <EmptyState
              title="No payments yet"
              description="Every charge attempt appears here, succeeded or declined, with the reason a card was declined."
            />
          )
        }
        label="Payments"
        sorting={sorting}
        onSortingChange={setSorting}
        columns={[
          { header: 'Date', sortField: 'created_at', cell: (payment) => formatDateTime(payment.created_at) },
          { header: 'Amount', sortField: 'amount', cell: (payment) => formatMoney(payment.amount, payment.currency) },
          {
            header: 'Status',
            sortField: 'status',
            cell: (payment) => (
              <Badge tone={PAYMENT_STATUS[payment.status].tone}>{PAYMENT_STATUS[payment.status].label}</Badge>
            ),
          },
          { header: 'Method', sortField: 'method', cell: describeMethod },
          { header: 'Decline reason', cell: (payment) => describeDecline(payment) ?? '—' },
          !orderId && {
            header: 'Order',
            cell: (payment) =>
              payment.order_id ? (
                <TextLink to={`${dashboardPath}/orders/${payment.order_id}`}>
                  View order
                  <span className="sr-only"> of the payment of {formatDateTime(payment.created_at)}</span>
                </TextLink>
              ) : (
                '—'
              ),
          },
        ]}
      />
    </div>
  );
}
