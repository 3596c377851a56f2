import { useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { PageHeader } from '../../../components/ui/page-header';
import { Loading } from '../../../components/ui/spinner';
import { CUSTOMERS_QUERY_KEY } from '../../../features/customers/api/get-customers';
import { ORDERS_QUERY_KEY } from '../../../features/orders/api/get-orders';
import { SubscriptionOrders } from '../../../features/orders/components/subscription-orders';
import { useProducts } from '../../../features/products/api/get-products';
import { useSubscription } from '../../../features/subscriptions/api/get-subscription';
import { SubscriptionActions } from '../../../features/subscriptions/components/subscription-actions';
import { SubscriptionDetails } from '../../../features/subscriptions/components/subscription-details';
import { SubscriptionHistory } from '../../../features/subscriptions/components/subscription-history';
import { UpcomingRenewal } from '../../../features/subscriptions/components/upcoming-renewal';
import { organizationPath, useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  const { subscriptionId = '' } = useParams();
  const subscription = useSubscription(subscriptionId);
  const queryClient = useQueryClient();
  // A subscription moves only to an active recurring product with no pay-what-you-want price.
  const products = useProducts({
    organization_id: organization.id,
    is_recurring: true,
    is_archived: false,
    limit: 100,
    sorting: ['name'],
  });
  const productOptions = (products.data?.items ?? [])
    .filter((product) => !product.prices.some((price) => price.amount_type === 'custom'))
    .map((product) => ({ value: product.id, label: product.name }));
  const back = (
    <Link className="text-sm font-medium text-blue-800 underline" to={organizationPath(organization, '/subscriptions')}>
      ← Subscriptions
    </Link>
  );

  if (subscription.isPending) return <Loading label="Loading subscription…" />;
  if (subscription.isError)
    return (
      <div className="space-y-4">
        {back}
        <ApiErrorAlert error={subscription.error} />
      </div>
    );
  const dashboardPath = organizationPath(organization);
  return (
    <>
      {back}
      <div className="mt-3">
        <PageHeader
          title={subscription.data.product.name}
          description={`Subscription of ${subscription.data.customer.email}`}
          actions={
            <SubscriptionActions
              subscription={subscription.data}
              productOptions={productOptions}
              defaultProration={organization.subscription_settings.proration_behavior}
              // A change can bill an order and grant or revoke benefits: what shows them is read again.
              onChanged={() => {
                void queryClient.invalidateQueries({ queryKey: ORDERS_QUERY_KEY });
                void queryClient.invalidateQueries({ queryKey: CUSTOMERS_QUERY_KEY });
              }}
            />
          }
        />
      </div>
      <SubscriptionDetails subscription={subscription.data} dashboardPath={dashboardPath} />
      <div className="mt-6">
        <UpcomingRenewal subscription={subscription.data} />
      </div>
      <section aria-labelledby="subscription-history" className="mt-8">
        <h2 id="subscription-history" className="mb-3 text-base font-semibold text-slate-900">
          History
        </h2>
        <SubscriptionHistory subscriptionId={subscription.data.id} />
      </section>
      <section aria-labelledby="subscription-orders" className="mt-8">
        <h2 id="subscription-orders" className="mb-3 text-base font-semibold text-slate-900">
          Orders
        </h2>
        <SubscriptionOrders
          customerId={subscription.data.customer_id}
          subscriptionId={subscription.data.id}
          dashboardPath={dashboardPath}
        />
      </section>
    </>
  );
}
