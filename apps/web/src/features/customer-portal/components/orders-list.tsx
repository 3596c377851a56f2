import type { CustomerOrder } from '@tessera/sdk';
import { OrderStatusBadge } from '../../../components/orders/order-status-badge';
import { OrderTotal } from '../../../components/orders/order-total';
import { DataTable } from '../../../components/ui/table';
import { TextLink } from '../../../components/ui/text-link';
import { formatDate } from '../../../lib/format';
import { BILLING_REASON } from '../../../lib/order-labels';
import { portalPath } from './portal-shell';

export interface OrdersTableProps {
  slug: string;
  orders: readonly CustomerOrder[];
  label?: string;
}

export function OrdersTable({ slug, orders, label = 'Orders' }: OrdersTableProps) {
  return (
    <DataTable
      label={label}
      rows={orders}
      columns={[
        {
          header: 'Product',
          cell: (order) => <TextLink to={portalPath(slug, `/orders/${order.id}`)}>{order.product.name}</TextLink>,
        },
        { header: 'Date', cell: (order) => formatDate(order.created_at) },
        { header: 'Reason', cell: (order) => BILLING_REASON.customer[order.billing_reason] },
        { header: 'Status', cell: (order) => <OrderStatusBadge status={order.status} /> },
        { header: 'Total', align: 'right', cell: (order) => <OrderTotal order={order} /> },
      ]}
    />
  );
}
