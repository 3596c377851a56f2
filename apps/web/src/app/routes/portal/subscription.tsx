import { useParams } from 'react-router';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';
import { Loading } from '../../../components/ui/spinner';
import { TextLink } from '../../../components/ui/text-link';
import { useOrders } from '../../../features/customer-portal/api/get-orders';
import { useSubscription } from '../../../features/customer-portal/api/get-subscription';
import { MissingResource } from '../../../features/customer-portal/components/missing-resource';
import { OrdersTable } from '../../../features/customer-portal/components/orders-list';
import { portalPath } from '../../../features/customer-portal/components/portal-shell';
import { SubscriptionActions } from '../../../features/customer-portal/components/subscription-actions';
import { SubscriptionDetails } from '../../../features/customer-portal/components/subscription-details';
import { usePortalSession } from '../../../features/customer-portal/session/portal-session';

/** `/portal/:slug/subscriptions/:subscriptionId`: the plan, what happens next, and its orders. */
export function Component() {
  const { slug } = usePortalSession();
  const { subscriptionId = '' } = useParams();
  const subscription = useSubscription(subscriptionId);
  const back = <TextLink to={portalPath(slug, '/subscriptions')}>← Subscriptions</TextLink>;

  if (subscription.isPending) return <Loading label="Loading your subscription…" />;
  if (subscription.isError) return <MissingResource error={subscription.error} noun="Subscription" back={back} />;
  return (
    <>
      {back}
      <div className="mt-3">
        <PageHeader
          title={subscription.data.product.name}
          description="Your subscription"
          actions={<SubscriptionActions subscription={subscription.data} />}
        />
      </div>
      <SubscriptionDetails subscription={subscription.data} />
      <SubscriptionOrders slug={slug} subscriptionId={subscription.data.id} />
    </>
  );
}

function SubscriptionOrders({ slug, subscriptionId }: { slug: string; subscriptionId: string }) {
  const orders = useOrders({ subscription_id: subscriptionId, limit: 10, sorting: ['-created_at'] });
  return (
    <section aria-labelledby="subscription-orders" className="mt-8 space-y-3">
      <h2 id="subscription-orders" className="text-lg font-semibold text-slate-900">
        Orders of this subscription
      </h2>
      {orders.isPending ? (
        <Loading label="Loading its orders…" />
      ) : orders.isError ? (
        <ApiErrorAlert error={orders.error} />
      ) : orders.data.items.length === 0 ? (
        <EmptyState title="No orders" description="The orders of this subscription appear here once billed." />
      ) : (
        <OrdersTable slug={slug} orders={orders.data.items} label="Orders of this subscription" />
      )}
    </section>
  );
}
