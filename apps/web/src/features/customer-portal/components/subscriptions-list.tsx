import type { CustomerSubscription } from '@tessera/sdk';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { Table, TableHead, Td, Th, Tr } from '../../../components/ui/table';
import { formatDate, formatMoneyPerInterval } from '../../../lib/format';
import { describeStatus } from '../logic/subscription-status';
import { linkClass } from './detail-row';
import { portalPath } from './portal-shell';

export interface SubscriptionsTableProps {
  slug: string;
  subscriptions: readonly CustomerSubscription[];
  label?: string;
}

/** The customer's subscriptions: plan, price, status and the next date that matters. */
export function SubscriptionsTable({ slug, subscriptions, label = 'Subscriptions' }: SubscriptionsTableProps) {
  return (
    <Table label={label}>
      <TableHead>
        <Th>Plan</Th>
        <Th>Price</Th>
        <Th>Status</Th>
        <Th>Renews or ends</Th>
      </TableHead>
      <tbody>
        {subscriptions.map((subscription) => {
          const status = describeStatus(subscription);
          const ends = subscription.ended_at ?? subscription.ends_at;
          return (
            <Tr key={subscription.id}>
              <Td>
                <Link className={linkClass} to={portalPath(slug, `/subscriptions/${subscription.id}`)}>
                  {subscription.product.name}
                </Link>
              </Td>
              <Td>
                {formatMoneyPerInterval(subscription.amount, subscription.currency, subscription.recurring_interval)}
              </Td>
              <Td>
                <Badge tone={status.tone}>{status.label}</Badge>
              </Td>
              <Td>{formatDate(ends ?? subscription.current_period_end)}</Td>
            </Tr>
          );
        })}
      </tbody>
    </Table>
  );
}
