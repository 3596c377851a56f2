import type { OrdersListRequest } from '@tessera/sdk';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { EmptyState } from '../../../components/ui/empty-state';
import { Field } from '../../../components/ui/field';
import { PagedList, usePage } from '../../../components/ui/paged-list';
import { Select, type SelectOption } from '../../../components/ui/select';
import { SortHeader, Table, TableHead, Td, Th, Tr } from '../../../components/ui/table';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { useOrders } from '../api/get-orders';
import { BILLING_REASON, BILLING_TYPE_OPTIONS, ORDER_STATUS } from './order-labels';

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
  const [productId, setProductId] = useState(ALL);
  const [billingType, setBillingType] = useState(ALL);
  const [sorting, setSorting] = useState<Sorting>('-created_at');
  const [page, setPage] = usePage([productId, billingType, customerId, sorting].join('|'));
  const request: OrdersListRequest = {
    organization_id: organizationId,
    customer_id: customerId,
    product_id: productId === ALL ? undefined : productId,
    product_billing_type: billingType === ALL ? undefined : (billingType as 'one_time' | 'recurring'),
    sorting: [sorting],
    page,
    limit: 20,
  };
  const query = useOrders(request);
  const isFiltered = productId !== ALL || billingType !== ALL || (showCustomer && customerId !== undefined);
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
        <Field label="Billing type" className="w-40">
          <Select value={billingType} options={BILLING_TYPE_OPTIONS} onValueChange={setBillingType} />
        </Field>
      </div>
      <PagedList
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
      >
        {(orders) => (
          <Table label="Orders">
            <TableHead>
              <SortHeader label="Date" field="created_at" sorting={sorting} onSortingChange={sort} />
              {showCustomer && (
                <SortHeader label="Customer" field="customer" sorting={sorting} onSortingChange={sort} />
              )}
              <SortHeader label="Product" field="product" sorting={sorting} onSortingChange={sort} />
              <Th>Reason</Th>
              <Th>Status</Th>
              <SortHeader label="Net amount" field="net_amount" sorting={sorting} onSortingChange={sort} />
              <Th className="text-right">Total</Th>
            </TableHead>
            <tbody>
              {orders.map((order) => (
                <Tr key={order.id}>
                  <Td>
                    <Link
                      className="font-medium text-blue-800 underline-offset-2 hover:underline"
                      to={`${dashboardPath}/orders/${order.id}`}
                    >
                      {formatDateTime(order.created_at)}
                    </Link>
                  </Td>
                  {showCustomer && (
                    <Td>
                      <Link
                        className="underline-offset-2 hover:underline"
                        to={`${dashboardPath}/customers/${order.customer_id}`}
                      >
                        {order.customer.email}
                      </Link>
                    </Td>
                  )}
                  <Td>{order.product.name}</Td>
                  <Td>{BILLING_REASON[order.billing_reason]}</Td>
                  <Td>
                    <Badge tone={ORDER_STATUS[order.status].tone}>{ORDER_STATUS[order.status].label}</Badge>
                  </Td>
                  <Td>{formatMoney(order.net_amount, order.currency)}</Td>
                  <Td className="text-right">{formatMoney(order.total_amount, order.currency)}</Td>
                </Tr>
              ))}
            </tbody>
          </Table>
        )}
      </PagedList>
    </div>
  );
}
