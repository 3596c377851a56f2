import type { OrderSubscription } from '@tessera/sdk';
import { formatMoneyPerInterval } from '../../lib/format';
import { DetailRow } from '../ui/detail-row';
import { TextLink } from '../ui/text-link';

export interface OrderSubscriptionRowProps {
  subscription: Pick<OrderSubscription, 'id' | 'amount' | 'currency' | 'recurring_interval'> | null;
  /** The page of the subscription, for the reader of the order. */
  subscriptionPath(id: string): string;
}

/** The subscription an order bills, by its price and linked; or that the order is a one-time purchase. */
export function OrderSubscriptionRow({ subscription, subscriptionPath }: OrderSubscriptionRowProps) {
  return (
    <DetailRow label="Subscription">
      {subscription ? (
        <TextLink to={subscriptionPath(subscription.id)}>
          {formatMoneyPerInterval(subscription.amount, subscription.currency, subscription.recurring_interval)}
        </TextLink>
      ) : (
        'One-time purchase'
      )}
    </DetailRow>
  );
}
