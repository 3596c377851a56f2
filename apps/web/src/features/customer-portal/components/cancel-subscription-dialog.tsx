import type { CustomerSubscription } from '@tessera/sdk';
import { CancellationDialog } from '../../../components/subscriptions/cancellation-dialog';
import { useToast } from '../../../components/ui/toast';
import { formatDate } from '../../../lib/format';
import { cancellationReasons } from '../../../lib/subscription-status';
import { useUpdateSubscription } from '../api/update-subscription';
import { explainSubscriptionError } from '../logic/subscription-errors';

export interface CancelSubscriptionDialogProps {
  subscription: CustomerSubscription;
  sellerName: string;
}

/** Cancels at the end of the paid period, with the customer's reason and comment when given. */
export function CancelSubscriptionDialog({ subscription, sellerName }: CancelSubscriptionDialogProps) {
  const update = useUpdateSubscription();
  const toast = useToast();
  return (
    <CancellationDialog
      text={{
        trigger: 'Cancel subscription',
        title: 'Cancel your subscription',
        description: `${subscription.product.name} stops renewing. You keep access until ${formatDate(subscription.current_period_end)}, and you can resume it until then.`,
        reasonLabel: 'Why are you canceling?',
        noReason: 'I’d rather not say',
        commentLabel: 'Anything else to tell us?',
        commentHint: `Optional. ${sellerName} reads it.`,
      }}
      reasons={cancellationReasons('customer')}
      isPending={update.isPending}
      error={explainSubscriptionError(update.error, 'cancel', sellerName)}
      onOpen={() => update.reset()}
      onSubmit={({ reason, comment }, close) =>
        update.mutate(
          {
            id: subscription.id,
            body: { cancel_at_period_end: true, cancellation_reason: reason, cancellation_comment: comment },
          },
          {
            onSuccess: (updated) => {
              close();
              toast(`Your subscription ends on ${formatDate(updated.ends_at ?? updated.current_period_end)}`);
            },
          },
        )
      }
    />
  );
}
