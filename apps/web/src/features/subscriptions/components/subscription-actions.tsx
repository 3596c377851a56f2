import type { Subscription, SubscriptionProrationBehavior } from '@tessera/sdk';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import type { SelectOption } from '../../../components/ui/select';
import { useToast } from '../../../components/ui/toast';
import { availableActions } from '../../../lib/subscription-status';
import { useRevokeSubscription } from '../api/revoke-subscription';
import { useUpdateSubscription } from '../api/update-subscription';
import { CancelSubscriptionDialog } from './cancel-subscription-dialog';
import { ChangeProductDialog } from './change-product-dialog';
import { explainSubscriptionError } from './subscription-errors';

export interface SubscriptionActionsProps {
  subscription: Subscription;
  /** Recurring products of the organization the subscription can move to. */
  productOptions: readonly SelectOption[];
  defaultProration: SubscriptionProrationBehavior;
  /** After any change: the page refreshes what depends on the subscription (orders, customer state). */
  onChanged?(subscription: Subscription): void;
}

/** What the seller can do with the subscription as it is now; nothing once it has ended. */
export function SubscriptionActions({
  subscription,
  productOptions,
  defaultProration,
  onChanged,
}: SubscriptionActionsProps) {
  const uncancel = useUpdateSubscription({ onChanged });
  const revoke = useRevokeSubscription({ onChanged });
  const toast = useToast();
  const actions = availableActions(subscription);
  const otherProducts = productOptions.filter((option) => option.value !== subscription.product_id);

  if (!Object.values(actions).some(Boolean)) return null;
  return (
    <div className="flex flex-col items-end gap-2">
      <div className="flex flex-wrap justify-end gap-2">
        {actions.changeProduct && (
          <ChangeProductDialog
            subscription={subscription}
            productOptions={otherProducts}
            defaultProration={defaultProration}
            onChanged={onChanged}
          />
        )}
        {actions.cancel && <CancelSubscriptionDialog subscription={subscription} onChanged={onChanged} />}
        {actions.uncancel && (
          <Button
            variant="secondary"
            size="sm"
            isPending={uncancel.isPending}
            onClick={() =>
              uncancel.mutate(
                { id: subscription.id, body: { cancel_at_period_end: false } },
                { onSuccess: () => toast('Subscription resumed: it renews again') },
              )
            }
          >
            Resume subscription
          </Button>
        )}
        {actions.revoke && (
          <ConfirmButton
            isPending={revoke.isPending}
            title="Revoke this subscription now?"
            description="It ends at once: no further charges, and the customer loses its benefits now. This cannot be undone."
            confirmLabel="Revoke subscription"
            onConfirm={() => revoke.mutate(subscription.id, { onSuccess: () => toast('Subscription revoked') })}
          >
            Revoke now
          </ConfirmButton>
        )}
      </div>
      <ApiErrorAlert error={explainSubscriptionError(uncancel.error, 'uncancel')} />
      <ApiErrorAlert error={explainSubscriptionError(revoke.error, 'revoke')} />
    </div>
  );
}
