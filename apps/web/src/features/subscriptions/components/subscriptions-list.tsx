import type { SubscriptionsListRequest } from '@tessera/sdk';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { EmptyState } from '../../../components/ui/empty-state';
import { Field } from '../../../components/ui/field';
import { PagedList, usePage } from '../../../components/ui/paged-list';
import { Select, type SelectOption } from '../../../components/ui/select';
import { SortHeader, Table, TableHead, Tr, Td } from '../../../components/ui/table';
import { formatDate, formatMoneyPerInterval } from '../../../lib/format';
import { useSubscriptions } from '../api/get-subscriptions';
import { ACTIVE_FILTER_OPTIONS, describeStatus } from './subscription-status';

type Sorting =
  | 'started_at'
  | '-started_at'
  | 'current_period_end'
  | '-current_period_end'
  | 'amount'
  | '-amount'
  | 'status'
  | '-status'
  | 'customer'
  | '-customer'
  | 'product'
  | '-product';

const ALL = 'all';

export interface SubscriptionsListProps {
  organizationId: string;
  /** The organization's dashboard path: subscriptions and customers link below it. */
  dashboardPath: string;
  /** Only this customer's subscriptions: set by the customer page, or by a customer filter of the page. */
  customerId?: string;
  /** False on a customer's own page, where the column would repeat one name. */
  showCustomer?: boolean;
  /** The organization's recurring products, offered as a filter. */
  productOptions?: readonly SelectOption[];
  /** Filters composed by the page (a customer picker), shown beside the list's own. */
  filters?: ReactNode;
}

export function SubscriptionsList({
  organizationId,
  dashboardPath,
  customerId,
  showCustomer = true,
  productOptions,
  filters,
}: SubscriptionsListProps) {
  const [productId, setProductId] = useState(ALL);
  const [activity, setActivity] = useState(ALL);
  const [sorting, setSorting] = useState<Sorting>('-started_at');
  const [page, setPage] = usePage([productId, activity, customerId, sorting].join('|'));
  const request: SubscriptionsListRequest = {
    organization_id: organizationId,
    customer_id: customerId,
    product_id: productId === ALL ? undefined : productId,
    active: activity === ALL ? undefined : activity === 'active',
    sorting: [sorting],
    page,
    limit: 20,
  };
  const query = useSubscriptions(request);
  const isFiltered = productId !== ALL || activity !== ALL || (showCustomer && customerId !== undefined);
  const sort = (value: string) => setSorting(value as Sorting);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-start gap-3">
        {filters}
        {productOptions && (
          <Field label="Product" className="w-full sm:w-56">
            <Select
              value={productId}
              options={[{ value: ALL, label: 'All products' }, ...productOptions]}
              onValueChange={setProductId}
            />
          </Field>
        )}
        <Field label="Status" className="w-52">
          <Select value={activity} options={ACTIVE_FILTER_OPTIONS} onValueChange={setActivity} />
        </Field>
      </div>
      <PagedList
        query={query}
        loadingLabel="Loading subscriptions…"
        page={page}
        onPageChange={setPage}
        empty={
          isFiltered ? (
            <EmptyState title="No matching subscriptions" description="No subscription matches these filters." />
          ) : customerId ? (
            <EmptyState title="No subscriptions" description="This customer has never subscribed." />
          ) : (
            <EmptyState
              title="No subscriptions yet"
              description="A subscription starts when a customer buys a monthly or yearly product; it renews until canceled."
            />
          )
        }
      >
        {(subscriptions) => (
          <Table label="Subscriptions">
            <TableHead>
              <SortHeader label="Product" field="product" sorting={sorting} onSortingChange={sort} />
              {showCustomer && (
                <SortHeader label="Customer" field="customer" sorting={sorting} onSortingChange={sort} />
              )}
              <SortHeader label="Amount" field="amount" sorting={sorting} onSortingChange={sort} />
              <SortHeader label="Status" field="status" sorting={sorting} onSortingChange={sort} />
              <SortHeader label="Started" field="started_at" sorting={sorting} onSortingChange={sort} />
              <SortHeader label="Period ends" field="current_period_end" sorting={sorting} onSortingChange={sort} />
            </TableHead>
            <tbody>
              {subscriptions.map((subscription) => {
                const status = describeStatus(subscription);
                return (
                  <Tr key={subscription.id}>
                    <Td>
                      <Link
                        className="font-medium text-blue-800 underline-offset-2 hover:underline"
                        to={`${dashboardPath}/subscriptions/${subscription.id}`}
                      >
                        {subscription.product.name}
                      </Link>
                    </Td>
                    {showCustomer && (
                      <Td>
                        <Link
                          className="underline-offset-2 hover:underline"
                          to={`${dashboardPath}/customers/${subscription.customer_id}`}
                        >
                          {subscription.customer.email}
                        </Link>
                      </Td>
                    )}
                    <Td>
                      {formatMoneyPerInterval(
                        subscription.amount,
                        subscription.currency,
                        subscription.recurring_interval,
                      )}
                    </Td>
                    <Td>
                      <Badge tone={status.tone}>{status.label}</Badge>
                    </Td>
                    <Td>{formatDate(subscription.started_at)}</Td>
                    <Td>{formatDate(subscription.current_period_end)}</Td>
                  </Tr>
                );
              })}
            </tbody>
          </Table>
        )}
      </PagedList>
    </div>
  );
}
