import type { OrderStatus } from '@tessera/sdk';
import { ORDER_STATUS } from '../../lib/order-labels';
import { Badge } from '../ui/badge';

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  return <Badge tone={ORDER_STATUS[status].tone}>{ORDER_STATUS[status].label}</Badge>;
}
