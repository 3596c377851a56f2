import { OrderStatusBadge } from '../../../components/orders/order-status-badge';
import { OrderTotal } from '../../../components/orders/order-total';
import { Alert, ApiErrorAlert } from '../../../components/ui/alert';
import { EmptyState } from '../../../components/ui/empty-state';
import { Loading } from '../../../components/ui/spinner';
import { DataTable } from '../../../components/ui/table';
import { TextLink } from '../../../components/ui/text-link';
import { formatDateTime } from '../../../lib/format';
import { BILLING_REASON } from '../../../lib/order-labels';
import { useSubscriptionOrders } from '../api/get-subscription-orders';

export interface SubscriptionOrdersProps {
  customerId: string;
  subscriptionId: string;
  /** The organization's dashboard path: orders link below it. */
  dashboardPath: string;
}

/** Every order of one subscription, newest first: its first payment, renewals and changes. */
export function SubscriptionOrders({ customerId, subscriptionId, dashboardPath }: SubscriptionOrdersProps) {
  const query = useSubscriptionOrders({ customerId, subscriptionId });
  if (query.isPending) return <Loading label="Loading orders…" />;
  if (query.isError) return <ApiErrorAlert error={query.error} />;
  const { orders, isComplete } = query.data;
  return (
    <div className="space-y-3">
      {!isComplete && (
        <Alert tone="info" title="Recent orders only">
          This customer has many orders; the orders of this subscription among their most recent ones are shown.
        </Alert>
      )}
      {orders.length === 0 ? (
        <EmptyState title="No orders yet" description="This subscription has no order yet." />
      ) : (
        <DataTable
          label="Orders of this subscription"
          rows={orders}
          columns={[
            {
              header: 'Date',
              cell: (order) => (
                <TextLink to={`${dashboardPath}/orders/${order.id}`}>{formatDateTime(order.created_at)}</TextLink>
              ),
            },
            { header: 'Reason', cell: (order) => BILLING_REASON.seller[order.billing_reason] },
            { header: 'Status', cell: (order) => <OrderStatusBadge status={order.status} /> },
            { header: 'Total', align: 'right', cell: (order) => <OrderTotal order={order} /> },
          ]}
        />
      )}
    </div>
  );
}
