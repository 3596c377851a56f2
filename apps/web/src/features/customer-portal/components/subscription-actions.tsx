import type { CustomerSubscription } from '@tessera/sdk';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { useToast } from '../../../components/ui/toast';
import { availableActions } from '../../../lib/subscription-status';
import { useUpdateSubscription } from '../api/update-subscription';
import { usePortalSession } from '../session/portal-session';
import { explainSubscriptionError } from '../logic/subscription-errors';
import { planOptions } from '../logic/subscription-status';
import { CancelSubscriptionDialog } from './cancel-subscription-dialog';
import { ChangePlanDialog } from './change-plan-dialog';

/** What the customer can do with the subscription as it is now; nothing once it has ended. */
export function SubscriptionActions({ subscription }: { subscription: CustomerSubscription }) {
  const { storefront } = usePortalSession();
  const uncancel = useUpdateSubscription();
  const toast = useToast();
  const organization = storefront.organization;
  const actions = availableActions(subscription);
  const plans = planOptions(organization, storefront.products, subscription.product_id);
  const canChangePlan = actions.changeProduct && plans.length > 0;

  if (!actions.cancel && !actions.uncancel && !canChangePlan) return null;
  return (
    <div className="flex flex-col items-stretch gap-2 sm:items-end">
      <div className="flex flex-wrap gap-2 sm:justify-end">
        {canChangePlan && (
          <ChangePlanDialog
            subscription={subscription}
            plans={plans}
            prorationBehavior={organization.subscription_settings.proration_behavior}
            sellerName={organization.name}
          />
        )}
        {actions.cancel && <CancelSubscriptionDialog subscription={subscription} sellerName={organization.name} />}
        {actions.uncancel && (
          <Button
            size="sm"
            isPending={uncancel.isPending}
            onClick={() =>
              uncancel.mutate(
                { id: subscription.id, body: { cancel_at_period_end: false } },
                { onSuccess: () => toast('Your subscription is resumed: it renews again') },
              )
            }
          >
            Resume subscription
          </Button>
        )}
      </div>
      <ApiErrorAlert error={explainSubscriptionError(uncancel.error, 'uncancel', organization.name)} />
    </div>
  );
}
