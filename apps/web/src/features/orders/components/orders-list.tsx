import type { OrdersListRequest } from '@tessera/sdk';
import { useState, type ReactNode } from 'react';
import { OrderStatusBadge } from '../../../components/orders/order-status-badge';
import { OrderTotal } from '../../../components/orders/order-total';
import { customerColumn } from '../../../components/sales/customer-column';
import { ALL_PRODUCTS, ProductFilter } from '../../../components/sales/product-filter';
import { EmptyState } from '../../../components/ui/empty-state';
import { Field } from '../../../components/ui/field';
import { PagedTable, usePage } from '../../../components/ui/paged-list';
import { Select, type SelectOption } from '../../../components/ui/select';
import { TextLink } from '../../../components/ui/text-link';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { BILLING_REASON } from '../../../lib/order-labels';
import { useOrders } from '../api/get-orders';
import { BILLING_TYPE_OPTIONS } from './order-labels';

type Sorting =
  'created_at' | '-created_at' | 'net_amount' | '-net_amount' | 'customer' | '-customer' | 'product' | '-product';

const ALL = 'all';

export interface OrdersListProps {
  organizationId: string;
  /** The organization's dashboard path: orders and customers link below it. */
  dashboardPath: string;
  /** Only this customer's orders: set by the customer page, or by a customer filter of the page. */
  customerId?: string;
  /** False on a customer's own page, where the column would repeat one name. */
  showCustomer?: boolean;
  /** The organization's products, offered as a filter. */
  productOptions?: readonly SelectOption[];
  /** Filters composed by the page (a customer picker), shown beside the list's own. */
  filters?: ReactNode;
}

export function OrdersList({
  organizationId,
  dashboardPath,
  customerId,
  showCustomer = true,
  productOptions,
  filters,
}: OrdersListProps) {
  const [productId, setProductId] = useState(ALL_PRODUCTS);
  const [billingType, setBillingType] = useState(ALL);
  const [sorting, setSorting] = useState<Sorting>('-created_at');
  const [page, setPage] = usePage([productId, billingType, customerId, sorting].join('|'));
  const request: OrdersListRequest = {
    organization_id: organizationId,
    customer_id: customerId,
    product_id: productId === ALL_PRODUCTS ? undefined : productId,
    product_billing_type: billingType === ALL ? undefined : (billingType as 'one_time' | 'recurring'),
    sorting: [sorting],
    page,
    limit: 20,
  };
  const query = useOrders(request);
  const isFiltered = productId !== ALL_PRODUCTS || billingType !== ALL || (showCustomer && customerId !== undefined);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-start gap-3">
        {filters}
        {productOptions && <ProductFilter value={productId} options={productOptions} onValueChange={setProductId} />}
        <Field label="Billing type" className="w-40">
          <Select value={billingType} options={BILLING_TYPE_OPTIONS} onValueChange={setBillingType} />
        </Field>
      </div>
      <PagedTable
        query={query}
        loadingLabel="Loading orders…"
        page={page}
        onPageChange={setPage}
        empty={
          isFiltered ? (
            <EmptyState title="No matching orders" description="No order matches these filters." />
          ) : customerId ? (
            <EmptyState title="No orders yet" description="This customer has not placed an order yet." />
          ) : (
            <EmptyState
              title="No orders yet"
              description="Every purchase and every subscription payment becomes an order here, with its amounts and invoice."
            />
          )
        }
        label="Orders"
        sorting={sorting}
        onSortingChange={setSorting}
        columns={[
          {
            header: 'Date',
            sortField: 'created_at',
            cell: (order) => (
              <TextLink to={`${dashboardPath}/orders/${order.id}`}>{formatDateTime(order.created_at)}</TextLink>
            ),
          },
          showCustomer && customerColumn(dashboardPath),
          { header: 'Product', sortField: 'product', cell: (order) => order.product.name },
          { header: 'Reason', cell: (order) => BILLING_REASON.seller[order.billing_reason] },
          { header: 'Status', cell: (order) => <OrderStatusBadge status={order.status} /> },
          {
            header: 'Net amount',
            sortField: 'net_amount',
            cell: (order) => formatMoney(order.net_amount, order.currency),
          },
          { header: 'Total', align: 'right', cell: (order) => <OrderTotal order={order} /> },
        ]}
      />
    </div>
  );
}
