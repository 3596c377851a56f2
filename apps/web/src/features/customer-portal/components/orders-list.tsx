import type { CustomerOrder } from '@tessera/sdk';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { Table, TableHead, Td, Th, Tr } from '../../../components/ui/table';
import { formatDate, formatMoney } from '../../../lib/format';
import { BILLING_REASON, ORDER_STATUS } from '../logic/order-labels';
import { linkClass } from './detail-row';
import { portalPath } from './portal-shell';

export interface OrdersTableProps {
  slug: string;
  orders: readonly CustomerOrder[];
  label?: string;
}

export function OrdersTable({ slug, orders, label = 'Orders' }: OrdersTableProps) {
  return (
    <Table label={label}>
      <TableHead>
        <Th>Product</Th>
        <Th>Date</Th>
        <Th>Reason</Th>
        <Th>Status</Th>
        <Th className="text-right">Total</Th>
      </TableHead>
      <tbody>
        {orders.map((order) => (
          <Tr key={order.id}>
            <Td>
              <Link className={linkClass} to={portalPath(slug, `/orders/${order.id}`)}>
                {order.product.name}
              </Link>
            </Td>
            <Td>{formatDate(order.created_at)}</Td>
            <Td>{BILLING_REASON[order.billing_reason]}</Td>
            <Td>
              <Badge tone={ORDER_STATUS[order.status].tone}>{ORDER_STATUS[order.status].label}</Badge>
            </Td>
            <Td className="text-right">{formatMoney(order.total_amount, order.currency)}</Td>
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}
