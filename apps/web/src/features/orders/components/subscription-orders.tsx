import { Link } from 'react-router';
import { Alert, ApiErrorAlert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { EmptyState } from '../../../components/ui/empty-state';
import { Loading } from '../../../components/ui/spinner';
import { Table, TableHead, Td, Th, Tr } from '../../../components/ui/table';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { useSubscriptionOrders } from '../api/get-subscription-orders';
import { BILLING_REASON, ORDER_STATUS } from './order-labels';

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
        <Table label="Orders of this subscription">
          <TableHead>
            <Th>Date</Th>
            <Th>Reason</Th>
            <Th>Status</Th>
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
                <Td>{BILLING_REASON[order.billing_reason]}</Td>
                <Td>
                  <Badge tone={ORDER_STATUS[order.status].tone}>{ORDER_STATUS[order.status].label}</Badge>
                </Td>
                <Td className="text-right">{formatMoney(order.total_amount, order.currency)}</Td>
              </Tr>
            ))}
          </tbody>
        </Table>
      )}
    </div>
  );
}
