import type { Subscription } from '@tessera/sdk';
import { CancellationDialog } from '../../../components/subscriptions/cancellation-dialog';
import { useToast } from '../../../components/ui/toast';
import { formatDate } from '../../../lib/format';
import { cancellationReasons } from '../../../lib/subscription-status';
import { useUpdateSubscription } from '../api/update-subscription';
import { explainSubscriptionError } from './subscription-errors';

export interface CancelSubscriptionDialogProps {
  subscription: Subscription;
  onChanged?(subscription: Subscription): void;
}

/** Cancels at the end of the current period, with the customer's reason and comment when known. */
export function CancelSubscriptionDialog({ subscription, onChanged }: CancelSubscriptionDialogProps) {
  const update = useUpdateSubscription({ onChanged });
  const toast = useToast();
  return (
    <CancellationDialog
      text={{
        trigger: 'Cancel at period end',
        title: 'Cancel at the end of the period',
        description: `The subscription stops renewing. The customer keeps access until ${formatDate(subscription.current_period_end)}, and it can be resumed until then.`,
        reasonLabel: 'Reason',
        noReason: 'No reason given',
        commentLabel: 'Comment',
        commentHint: 'Optional: what the customer said, for your records.',
      }}
      reasons={cancellationReasons('seller')}
      isPending={update.isPending}
      error={explainSubscriptionError(update.error, 'cancel')}
      onOpen={() => update.reset()}
      onSubmit={({ reason, comment }, close) =>
        update.mutate(
          {
            id: subscription.id,
            body: {
              cancel_at_period_end: true,
              customer_cancellation_reason: reason,
              customer_cancellation_comment: comment,
            },
          },
          {
            onSuccess: (updated) => {
              close();
              toast(`Subscription will end on ${formatDate(updated.ends_at ?? updated.current_period_end)}`);
            },
          },
        )
      }
    />
  );
}
