import type { SubscriptionsListRequest } from '@tessera/sdk';
import { useState, type ReactNode } from 'react';
import { SubscriptionStatusBadge } from '../../../components/subscriptions/subscription-status-badge';
import { customerColumn } from '../../../components/sales/customer-column';
import { ALL_PRODUCTS, ProductFilter } from '../../../components/sales/product-filter';
import { EmptyState } from '../../../components/ui/empty-state';
import { Field } from '../../../components/ui/field';
import { PagedTable, usePage } from '../../../components/ui/paged-list';
import { Select, type SelectOption } from '../../../components/ui/select';
import { TextLink } from '../../../components/ui/text-link';
import { formatDate } from '../../../lib/format';
import { useSubscriptions } from '../api/get-subscriptions';
import { ACTIVE_FILTER_OPTIONS } from './subscription-status';
import { describeSubscriptionPrice } from '../../../components/subscriptions/subscription-price';

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
  const [productId, setProductId] = useState(ALL_PRODUCTS);
  const [activity, setActivity] = useState(ALL);
  const [sorting, setSorting] = useState<Sorting>('-started_at');
  const [page, setPage] = usePage([productId, activity, customerId, sorting].join('|'));
  const request: SubscriptionsListRequest = {
    organization_id: organizationId,
    customer_id: customerId,
    product_id: productId === ALL_PRODUCTS ? undefined : productId,
    active: activity === ALL ? undefined : activity === 'active',
    sorting: [sorting],
    page,
    limit: 20,
  };
  const query = useSubscriptions(request);
  const isFiltered = productId !== ALL_PRODUCTS || activity !== ALL || (showCustomer && customerId !== undefined);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-start gap-3">
        {filters}
        {productOptions && <ProductFilter value={productId} options={productOptions} onValueChange={setProductId} />}
        <Field label="Status" className="w-52">
          <Select value={activity} options={ACTIVE_FILTER_OPTIONS} onValueChange={setActivity} />
        </Field>
      </div>
      <PagedTable
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
        label="Subscriptions"
        sorting={sorting}
        onSortingChange={setSorting}
        columns={[
          {
            header: 'Product',
            sortField: 'product',
            cell: (subscription) => (
              <TextLink to={`${dashboardPath}/subscriptions/${subscription.id}`}>{subscription.product.name}</TextLink>
            ),
          },
          showCustomer && customerColumn(dashboardPath),
          {
            header: 'Amount',
            sortField: 'amount',
            cell: (subscription) => describeSubscriptionPrice(subscription),
          },
          {
            header: 'Status',
            sortField: 'status',
            cell: (subscription) => <SubscriptionStatusBadge subscription={subscription} audience="seller" />,
          },
          { header: 'Started', sortField: 'started_at', cell: (subscription) => formatDate(subscription.started_at) },
          {
            header: 'Period ends',
            sortField: 'current_period_end',
            cell: (subscription) => formatDate(subscription.current_period_end),
          },
        ]}
      />
    </div>
  );
}
