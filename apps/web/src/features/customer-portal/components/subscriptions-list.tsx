import type { CustomerSubscription } from '@tessera/sdk';
import { SubscriptionStatusBadge } from '../../../components/subscriptions/subscription-status-badge';
import { DataTable } from '../../../components/ui/table';
import { TextLink } from '../../../components/ui/text-link';
import { formatDate } from '../../../lib/format';
import { portalPath } from './portal-shell';
import { describeSubscriptionPrice } from '../../../components/subscriptions/subscription-price';

export interface SubscriptionsTableProps {
  slug: string;
  subscriptions: readonly CustomerSubscription[];
  label?: string;
}

/** The customer's subscriptions: plan, price, status and the next date that matters. */
export function SubscriptionsTable({ slug, subscriptions, label = 'Subscriptions' }: SubscriptionsTableProps) {
  return (
    <DataTable
      label={label}
      rows={subscriptions}
      columns={[
        {
          header: 'Plan',
          cell: (subscription) => (
            <TextLink to={portalPath(slug, `/subscriptions/${subscription.id}`)}>{subscription.product.name}</TextLink>
          ),
        },
        {
          header: 'Price',
          cell: (subscription) => describeSubscriptionPrice(subscription),
        },
        {
          header: 'Status',
          cell: (subscription) => <SubscriptionStatusBadge subscription={subscription} audience="customer" />,
        },
        {
          header: 'Renews or ends',
          cell: (subscription) =>
            formatDate(subscription.ended_at ?? subscription.ends_at ?? subscription.current_period_end),
        },
      ]}
    />
  );
}
