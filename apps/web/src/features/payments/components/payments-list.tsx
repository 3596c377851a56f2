import type { PaymentsListRequest, PaymentStatus } from '@tessera/sdk';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { PagedList, usePage } from '../../../components/ui/paged-list';
import { Select } from '../../../components/ui/select';
import { SortHeader, Table, TableHead, Td, Th, Tr } from '../../../components/ui/table';
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
  const sort = (value: string) => setSorting(value as Sorting);

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
      <PagedList
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
      >
        {(payments) => (
          <Table label="Payments">
            <TableHead>
              <SortHeader label="Date" field="created_at" sorting={sorting} onSortingChange={sort} />
              <SortHeader label="Amount" field="amount" sorting={sorting} onSortingChange={sort} />
              <SortHeader label="Status" field="status" sorting={sorting} onSortingChange={sort} />
              <SortHeader label="Method" field="method" sorting={sorting} onSortingChange={sort} />
              <Th>Decline reason</Th>
              {!orderId && <Th>Order</Th>}
            </TableHead>
            <tbody>
              {payments.map((payment) => (
                <Tr key={payment.id}>
                  <Td>{formatDateTime(payment.created_at)}</Td>
                  <Td>{formatMoney(payment.amount, payment.currency)}</Td>
                  <Td>
                    <Badge tone={PAYMENT_STATUS[payment.status].tone}>{PAYMENT_STATUS[payment.status].label}</Badge>
                  </Td>
                  <Td>{describeMethod(payment)}</Td>
                  <Td>{describeDecline(payment) ?? '—'}</Td>
                  {!orderId && (
                    <Td>
                      {payment.order_id ? (
                        <Link
                          className="font-medium text-blue-800 underline-offset-2 hover:underline"
                          to={`${dashboardPath}/orders/${payment.order_id}`}
                        >
                          View order
                          <span className="sr-only"> of the payment of {formatDateTime(payment.created_at)}</span>
                        </Link>
                      ) : (
                        '—'
                      )}
                    </Td>
                  )}
                </Tr>
              ))}
            </tbody>
          </Table>
        )}
      </PagedList>
    </div>
  );
}
